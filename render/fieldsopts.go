package render

import (
	"fmt"
	"strconv"
	"strings"
)

// SetFieldsOption applies one of tshark's -E options of -T fields to o:
// header=y|n, separator=/t|/s|C, aggregator=C, occurrence=a|f|l|N (N: the
// Nth, -1 the last) and quote=d|s|n. As tshark, a value is read by its
// first character (header=yes is y), and one that is empty or starts with
// no choice is refused.
func (o *Options) SetFieldsOption(opt string) error {
	k, v, _ := strings.Cut(opt, "=")
	switch k {
	case "header":
		switch first(v) {
		case 'y':
			o.Header = true
		case 'n':
			o.Header = false
		default:
			return fmt.Errorf("-E header=%q: choose y or n", v)
		}
	case "separator", "aggregator":
		if v == "" {
			return fmt.Errorf("-E %s=: give a character (/t for a tab, /s for a space)", k)
		}
		if k == "separator" {
			o.Separator = tsharkChar(v)
		} else {
			o.Aggregator = tsharkChar(v)
		}
	case "occurrence":
		occ, n, err := occurrence(v)
		if err != nil {
			return err
		}
		o.Occurrence, o.OccurrenceN = occ, n
	case "quote":
		switch first(v) {
		case 'd':
			o.Quote = '"'
		case 's':
			o.Quote = '\''
		case 'n':
			o.Quote = 0
		default:
			return fmt.Errorf("-E quote=%q: choose d, s or n", v)
		}
	default:
		return fmt.Errorf("-E %q: unknown option (header, separator, aggregator, occurrence, quote)", opt)
	}
	return nil
}

// first is the first byte of v, 0 if v is empty.
func first(v string) byte {
	if v == "" {
		return 0
	}
	return v[0]
}

// tsharkChar reads tshark's -E character escapes: /t is a tab, /s a space.
func tsharkChar(v string) string {
	switch v {
	case "/t":
		return "\t"
	case "/s":
		return " "
	}
	return v
}

// occurrence reads -E occurrence=: f, l, a, or N (1 the first, -1 the
// last).
func occurrence(v string) (byte, int, error) {
	if v != "" && strings.IndexByte("afl", v[0]) >= 0 {
		return v[0], 0, nil // by its first character, as tshark: first is f
	}
	n, err := strconv.Atoi(v)
	if err != nil || n == 0 {
		return 0, 0, fmt.Errorf("-E occurrence=%q: choose a (all), f (first), l (last) or a number N (the Nth, -1 the last)", v)
	}
	return 'a', n, nil
}
