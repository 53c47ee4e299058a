package java

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
)

// maxChatText bounds the plain text made of one chat component.
const maxChatText = 4096

// chatJSON is the plain text of a chat component in JSON (before 1.20.3):
// its text, translate key with arguments, and extra, in order. Text that is
// not JSON, or a JSON string, is itself. "" when b is empty.
func chatJSON(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if b[0] != '{' && b[0] != '[' && b[0] != '"' {
		return clipText(string(b))
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return clipText(string(b))
	}
	var sb strings.Builder
	flattenJSON(&sb, v, 0)
	return clipText(sb.String())
}

func flattenJSON(sb *strings.Builder, v any, depth int) {
	if depth > 32 || sb.Len() > maxChatText {
		return
	}
	switch x := v.(type) {
	case string:
		sb.WriteString(x)
	case []any:
		for _, e := range x {
			flattenJSON(sb, e, depth+1)
		}
	case map[string]any:
		if t, ok := x["text"].(string); ok {
			sb.WriteString(t)
		}
		if t, ok := x["translate"].(string); ok {
			sb.WriteString(t)
			if with, ok := x["with"].([]any); ok && len(with) > 0 {
				sb.WriteString(" [")
				for i, e := range with {
					if i > 0 {
						sb.WriteString(", ")
					}
					flattenJSON(sb, e, depth+1)
				}
				sb.WriteString("]")
			}
		}
		if e, ok := x["extra"].([]any); ok {
			for _, y := range e {
				flattenJSON(sb, y, depth+1)
			}
		}
	}
}

func clipText(s string) string {
	if len(s) > maxChatText {
		s = s[:maxChatText]
	}
	return s
}

// chatNBT is the plain text of a chat component in NBT (1.20.3+): a
// string tag is its text; a compound gives its "text", "translate" (with
// "with") and "extra", as in JSON. b is the whole NBT, named or not.
func chatNBT(b []byte, named bool) string {
	if len(b) == 0 {
		return ""
	}
	r := nbtReader{b: b[1:]}
	tt := int(b[0])
	if named {
		r.str()
	}
	var sb strings.Builder
	r.text(&sb, tt, 0)
	if r.bad {
		return ""
	}
	return clipText(sb.String())
}

// maxRootKeys bounds how many of a compound's keys an Info line names.
const maxRootKeys = 8

// appendRootKeys appends ": " and the names of the tags of the root
// compound of NBT b (named or not), at most maxRootKeys of them and
// maxInfoText bytes, then how many there are: a registry codec's
// registries ("minecraft:chat_type, …, minecraft:worldgen/biome (6
// registries)"). It appends nothing when b is not a compound or is cut.
func appendRootKeys(dst []byte, b []byte, named bool) []byte {
	if len(b) == 0 || b[0] != tagCompound {
		return dst
	}
	r := nbtReader{b: b[1:]}
	if named {
		r.str()
	}
	start := len(dst)
	dst = append(dst, ": "...)
	n, shown := 0, 0
	for !r.bad {
		t := r.take(1)
		if t == nil || t[0] == tagEnd {
			break
		}
		name := r.str()
		r.skip(int(t[0]), 1)
		if r.bad {
			break
		}
		if shown < maxRootKeys && len(dst)-start+len(name) <= maxInfoText {
			if shown > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, name...)
			shown++
		}
		n++
	}
	if r.bad || n == 0 {
		return dst[:start]
	}
	if shown < n {
		if shown > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, "…"...)
	}
	dst = append(dst, " ("...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	if n == 1 {
		return append(dst, " registry)"...)
	}
	return append(dst, " registries)"...)
}

// nbtReader reads NBT for its text only, with no tree.
type nbtReader struct {
	b   []byte
	bad bool
}

func (r *nbtReader) take(n int) []byte {
	if r.bad || n < 0 || n > len(r.b) {
		r.bad = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// str reads a string tag's payload: a view of the NBT's bytes.
func (r *nbtReader) str() []byte {
	h := r.take(2)
	if h == nil {
		return nil
	}
	return r.take(int(binary.BigEndian.Uint16(h)))
}

// text appends the text of a tag of type tt; other tags are skipped.
func (r *nbtReader) text(sb *strings.Builder, tt int, depth int) {
	if depth > 32 || r.bad || sb.Len() > maxChatText {
		r.bad = r.bad || depth > 32
		return
	}
	switch tt {
	case tagString:
		sb.Write(r.str())
	case tagList:
		h := r.take(5)
		if h == nil {
			return
		}
		et, n := int(h[0]), int(int32(binary.BigEndian.Uint32(h[1:])))
		if n > len(r.b) {
			r.bad = true
			return
		}
		for i := 0; i < n && !r.bad; i++ {
			r.text(sb, et, depth+1)
		}
	case tagCompound:
		var with []func()
		for !r.bad {
			t := r.take(1)
			if t == nil || t[0] == tagEnd {
				break
			}
			name := r.str()
			switch {
			case string(name) == "text" && t[0] == tagString, string(name) == "translate" && t[0] == tagString:
				sb.Write(r.str())
			case string(name) == "extra" && t[0] == tagList:
				r.text(sb, tagList, depth+1)
			case string(name) == "with" && t[0] == tagList:
				var w strings.Builder
				r.text(&w, tagList, depth+1)
				s := w.String()
				with = append(with, func() {
					if s != "" {
						sb.WriteString(" [" + s + "]")
					}
				})
			default:
				r.skip(int(t[0]), depth+1)
			}
		}
		for _, f := range with {
			f()
		}
	default:
		r.skip(tt, depth)
	}
}

// skip passes over a payload of type tt.
func (r *nbtReader) skip(tt int, depth int) {
	if depth > maxNBTDepth {
		r.bad = true
		return
	}
	switch tt {
	case tagByte:
		r.take(1)
	case tagShort:
		r.take(2)
	case tagInt, tagFloat:
		r.take(4)
	case tagLong, tagDouble:
		r.take(8)
	case tagString:
		r.str()
	case tagByteArray, tagIntArray, tagLongArray:
		h := r.take(4)
		if h == nil {
			return
		}
		n := int(int32(binary.BigEndian.Uint32(h)))
		el := 1
		switch tt {
		case tagIntArray:
			el = 4
		case tagLongArray:
			el = 8
		}
		if n < 0 || n > len(r.b)/el {
			r.bad = true
			return
		}
		r.take(n * el)
	case tagList:
		h := r.take(5)
		if h == nil {
			return
		}
		et, n := int(h[0]), int(int32(binary.BigEndian.Uint32(h[1:])))
		if n > len(r.b) {
			r.bad = true
			return
		}
		for i := 0; i < n && !r.bad; i++ {
			r.skip(et, depth+1)
		}
	case tagCompound:
		for !r.bad {
			t := r.take(1)
			if t == nil || t[0] == tagEnd {
				return
			}
			r.str()
			r.skip(int(t[0]), depth+1)
		}
	default:
		r.bad = true
	}
}
