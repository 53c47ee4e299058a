package dissect

import (
	"bytes"
	"encoding/base64"
	"math/bits"
	"slices"
	"unsafe"
)

// Secrets is the set of secret values a run has learned (--redact): the
// values and bytes of every node a decoder marks secret (FlagSensitive, or
// a Sensitive field), whatever PDU it is in. Mask then finds every copy of
// them in any PDU of any protocol, by value: in its bytes (raw, or
// %-escaped or \u00XX-escaped as URLs and JSON write them), in every
// node's value, text and key, in Info, Message, the expert items and the
// files the PDU carries. Decoders only mark; the pipeline learns from
// every record and masks every record as it leaves (record.Record.Redact).
//
// Matching ignores ASCII case (keys are hex, and a salt's copy in another
// case is no less a copy) and costs a few operations per byte whatever the
// number of secrets: each value is learned as contiguous pieces of at most
// 16 bytes (pieceLen), and a scan keeps the last 16 bytes it read in a
// 128-bit window, so that a piece of length k ends at a position exactly
// when the window's last k bytes are its fingerprint (at a position whose
// byte ends a piece, one bit of a filter tested per piece length; the
// fingerprints are probed only on a hit). A copy is the run of the pieces it holds; a copy cut by the
// edge of a PDU's bytes or of a node's value (a secret split between two
// records by misframing, a key split between two chat messages) is found
// from the prefixes and suffixes of the pieces at those edges. What is
// shorter than MinSecret bytes is never looked for: it would mask
// unrelated text.
//
// A hostile capture can teach many values (a key per connection). Past
// MaxPieces pieces (a 32-digit key is 2) the set takes no more: Learn
// counts what it refused, and a PDU whose secret was refused is still
// masked in itself (its own secrets, learned apart), but copies of that
// secret elsewhere are not. The values themselves are not kept: a value
// whose pieces are all known is known. At MaxPieces the set holds about
// 9 MB (the fingerprints of the pieces and of their edges, 8 MB).
//
// A Secrets is used by one goroutine at a time.
type Secrets struct {
	pieces  []pieceKey // the whole pieces, to rebuild the filter as it grows
	fps     fpSet      // fingerprints of whole pieces and of their edges
	filter  bitFilter  // whole pieces' windows
	efilter bitFilter  // their prefixes' and suffixes'
	nedges  int        // how many prefixes and suffixes
	lens    uint32     // bit k set: a whole piece of k bytes exists
	ends    [256]bool  // the last bytes (folded) of the whole pieces
	learned int        // values that brought a piece
	refused uint64     // values refused past the bound
	limit   int        // the bound on pieces

	spans     []span // scratch: what a scan of a text found
	dataSpans []span // scratch: what the scan of a PDU's bytes found
	view      []byte // scratch: the escapes decoded
	pos       []int32
	folded    []byte // scratch: a value learned, folded
	cuts      []int  // scratch: its pieces
}

// The bounds of a Secrets (see Secrets).
const (
	MaxPieces = 16384
	// MinSecret is the shortest value (and piece of a split copy) looked
	// for; a secret node's own bytes are masked whatever their length.
	MinSecret = 4
	pieceLen  = 16
)

// NewSecrets makes an empty set bounded by MaxPieces.
func NewSecrets() *Secrets { return NewSecretsLimit(MaxPieces) }

// NewSecretsLimit makes an empty set that takes at most pieces pieces (a
// value of n bytes is about n/16 pieces).
func NewSecretsLimit(pieces int) *Secrets { return &Secrets{limit: pieces} }

// Len is the number of values learned (those all of whose pieces were
// known already are not counted again).
func (s *Secrets) Len() int { return s.learned }

// Refused is the number of values the set refused, past its bounds.
func (s *Secrets) Refused() uint64 { return s.refused }

// span is a range [lo, hi) of a scanned text.
type span struct{ lo, hi int }

// pieceKey is up to 16 folded bytes as a scan's window holds them: lo the
// last 8 (the last byte lowest), hi the ones before.
type pieceKey struct {
	lo, hi uint64
	n      uint8
}

// pack is b (at most 16 bytes, folded) as a window.
func pack(b []byte) pieceKey {
	var k pieceKey
	for _, c := range b {
		k.hi = k.hi<<8 | k.lo>>56
		k.lo = k.lo<<8 | uint64(c)
	}
	k.n = uint8(len(b))
	return k
}

// fold is ASCII lower case.
var fold = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// The masks that keep a window's last k bytes.
var loMask, hiMask = func() (lo, hi [pieceLen + 1]uint64) {
	for k := 0; k <= pieceLen; k++ {
		switch {
		case k >= 8:
			lo[k] = ^uint64(0)
		default:
			lo[k] = 1<<(8*k) - 1
		}
		switch {
		case k <= 8:
			hi[k] = 0
		case k == 16:
			hi[k] = ^uint64(0)
		default:
			hi[k] = 1<<(8*(k-8)) - 1
		}
	}
	return
}()

// What a fingerprint is of.
const (
	fpWhole uint64 = iota + 1
	fpPrefix
	fpSuffix
)

func fmix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// fingerprint of a window of kind fpWhole, fpPrefix or fpSuffix; never 0.
// Two windows with one fingerprint (about 2^-64 for a pair: each step of
// the chain is a bijection of the word it mixes in) would mask bytes that
// are no copy, or, when learning, take a new piece for one known and
// leave it unlearned.
func fingerprint(kind uint64, k pieceKey) uint64 {
	h := fmix(fmix(fmix(uint64(k.n)<<8|kind)^k.hi) ^ k.lo)
	if h == 0 {
		h = 1
	}
	return h
}

// quick is the filter's hash of a window: cheaper than a fingerprint.
func quick(lo, hi uint64, n int) uint64 {
	return (lo*0x9e3779b97f4a7c15 ^ hi*0xc2b2ae3d27d4eb4f) + uint64(n)*0x165667b19e3779f9
}

// bitFilter is a bit per window (its quick hash's top bits): a window
// whose bit is clear is none of those added.
type bitFilter struct {
	bits  []uint64
	shift uint // 64 - log2 of the number of bits
}

func (f *bitFilter) has(h uint64) bool {
	i := h >> f.shift
	return f.bits[i>>6]&(1<<(i&63)) != 0
}

func (f *bitFilter) add(h uint64) {
	i := h >> f.shift
	f.bits[i>>6] |= 1 << (i & 63)
}

// sized makes f empty with at least perItem bits per item, and reports
// whether it changed (then the items must be added again).
func (f *bitFilter) sized(items, perItem int) bool {
	want := uint(12)
	for uint64(1)<<want < uint64(items*perItem) {
		want++
	}
	if f.bits != nil && 64-f.shift >= want {
		return false
	}
	f.bits, f.shift = make([]uint64, 1<<want/64), 64-want
	return true
}

// edgeHash is quick's for a prefix or a suffix.
func edgeHash(kind uint64, k pieceKey) uint64 {
	return quick(k.lo, k.hi, int(k.n)) ^ kind*0x9fb21c651e98df25
}

// edgesOf calls fn with each prefix and suffix of piece k of MinSecret
// bytes or more (but k itself).
func edgesOf(k pieceKey, fn func(kind uint64, e pieceKey)) {
	n := int(k.n)
	for j := MinSecret; j < n; j++ {
		// The prefix: the first j bytes, the window shifted right.
		sh := uint(8 * (n - j))
		var p pieceKey
		if sh >= 64 {
			p.lo = k.hi >> (sh - 64)
		} else {
			p.lo = k.lo>>sh | k.hi<<(64-sh)
			p.hi = k.hi >> sh
		}
		p.n = uint8(j)
		fn(fpPrefix, p)
		fn(fpSuffix, pieceKey{k.lo & loMask[j], k.hi & hiMask[j], uint8(j)})
	}
}

// growFilter keeps the filters at 16 bits or more per piece and 8 per
// prefix and suffix, so that a window that is none rarely costs a probe.
func (s *Secrets) growFilter() {
	if s.filter.sized(len(s.pieces), 16) {
		for _, k := range s.pieces {
			s.filter.add(quick(k.lo, k.hi, int(k.n)))
		}
	}
	if s.efilter.sized(s.nedges, 8) {
		for _, k := range s.pieces {
			edgesOf(k, func(kind uint64, e pieceKey) { s.efilter.add(edgeHash(kind, e)) })
		}
	}
}

// fpSet is a set of fingerprints: open addressing, linear probing, 0 for
// an empty slot, at most half full.
type fpSet struct {
	slots []uint64
	n     int
}

func (f *fpSet) has(h uint64) bool {
	if len(f.slots) == 0 {
		return false
	}
	m := uint64(len(f.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		switch f.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// add inserts h; it reports whether h is new.
func (f *fpSet) add(h uint64) bool {
	if 2*(f.n+1) > len(f.slots) {
		old := f.slots
		f.slots = make([]uint64, max(64, 2*len(old)))
		f.n = 0
		for _, v := range old {
			if v != 0 {
				f.add(v)
			}
		}
	}
	m := uint64(len(f.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		switch f.slots[i] {
		case h:
			return false
		case 0:
			f.slots[i] = h
			f.n++
			return true
		}
	}
}

// Learn adds the secrets of p to the set: the value (of a string or bytes
// field) and the bytes of every node flagged FlagSensitive or of a
// Sensitive field, but for containers flagged as a whole (a heartbeat's
// line holding the salt: its value is its children's, and its salt is a
// node of its own) and opaque bytes (which are masked whole, not
// secrets). Values are trimmed of the padding around them (a Classic
// string's spaces). It returns the number of values refused past the
// set's bounds.
func (s *Secrets) Learn(p *PDU) (refused int) {
	var leaf []bool
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field == nil || n.Field.Opaque || n.Flags&FlagSensitive == 0 && !n.Field.Sensitive {
			continue
		}
		if !n.Field.Sensitive {
			if leaf == nil {
				leaf = leaves(p)
			}
			if !leaf[i] {
				continue
			}
		}
		if n.Field.Type == FTString || n.Field.Type == FTBytes {
			if !s.add(n.Value.B) {
				refused++
			}
		}
		if n.Flags&FlagGenerated == 0 && n.Length > 0 && n.Offset >= 0 && int(n.Offset+n.Length) <= len(p.Data) {
			if !s.add(p.Data[n.Offset : n.Offset+n.Length]) {
				refused++
			}
		}
	}
	return refused
}

// leaves marks the nodes of p with no child on the wire.
func leaves(p *PDU) []bool {
	leaf := make([]bool, len(p.Nodes))
	for i := range leaf {
		leaf[i] = true
	}
	for i := 1; i < len(p.Nodes); i++ {
		if n := &p.Nodes[i]; n.Flags&FlagGenerated == 0 && n.Parent >= 0 {
			leaf[n.Parent] = false
		}
	}
	return leaf
}

// padding is what surrounds a value in a fixed-size field.
func padding(c byte) bool { return c == ' ' || c == 0 || c == '\t' || c == '\r' || c == '\n' }

// add learns one value; it reports false when the set refused it.
func (s *Secrets) add(b []byte) bool {
	for len(b) > 0 && padding(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && padding(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	if len(b) < MinSecret {
		return true
	}
	f := s.folded[:0]
	for _, c := range b {
		f = append(f, fold[c])
	}
	s.folded = f
	cuts := tile(len(f), s.cuts[:0])
	s.cuts = cuts
	fresh := 0
	for i := 1; i < len(cuts); i++ {
		if !s.fps.has(fingerprint(fpWhole, pack(f[cuts[i-1]:cuts[i]]))) {
			fresh++
		}
	}
	if fresh == 0 {
		return true // known
	}
	if s.limit == 0 {
		s.limit = MaxPieces // the zero Secrets
	}
	if len(s.pieces)+fresh > s.limit {
		s.refused++
		return false
	}
	s.learned++
	for i := 1; i < len(cuts); i++ {
		s.addPiece(f[cuts[i-1]:cuts[i]])
	}
	s.growFilter()
	return true
}

// tile cuts a value of n bytes (n >= MinSecret) into contiguous pieces of
// MinSecret to pieceLen bytes: pieceLen each but for the last one or two,
// which share the rest. It appends the cut points, 0 and n included, to
// cuts.
func tile(n int, cuts []int) []int {
	cuts = append(cuts, 0)
	at := 0
	for n-at > pieceLen {
		if r := n - at - pieceLen; r < MinSecret {
			// What would be left after a whole piece is too short to be
			// one: split the two last pieces' bytes in halves.
			h := (n - at) / 2
			cuts = append(cuts, at+h)
			at += h
			break
		}
		at += pieceLen
		cuts = append(cuts, at)
	}
	return append(cuts, n)
}

// addPiece learns one piece (folded): its fingerprint, and those of its
// prefixes and suffixes of MinSecret bytes or more, for copies cut at an
// edge.
func (s *Secrets) addPiece(pc []byte) {
	k := pack(pc)
	if !s.fps.add(fingerprint(fpWhole, k)) {
		return
	}
	s.pieces = append(s.pieces, k)
	s.lens |= 1 << len(pc)
	s.ends[pc[len(pc)-1]] = true
	if s.filter.bits != nil {
		s.filter.add(quick(k.lo, k.hi, int(k.n)))
	}
	edgesOf(k, func(kind uint64, e pieceKey) {
		s.fps.add(fingerprint(kind, e))
		s.nedges++
		if s.efilter.bits != nil {
			s.efilter.add(edgeHash(kind, e))
		}
	})
}

// readOnly is a view of s's bytes, for a scan that reads them. unsafe:
// the view is never written (masking writes PDU.Data and copies only) and
// not kept past the scan; a string is scanned without a copy (texts,
// Info, keys: a copy per string per record was a third of Mask's time).
// TestSecretsMask scans string literals, which fault if written.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// find appends to spans the ranges of t that hold a piece of a secret, and
// with edges (a PDU's bytes, a value) those its ends hold of a piece cut
// there and those of the base64 of a data URI (an SLP favicon) whose
// decoding holds one; the ranges it appends are sorted and merged. It
// reads the escapes a URL or JSON may write a copy with (%XX, \u00XX) too,
// when t holds any.
func find(s *Secrets, t []byte, edges bool, spans []span) []span {
	if len(s.pieces) == 0 || len(t) < MinSecret {
		return spans
	}
	from := len(spans)
	spans = scan(s, t, spans)
	if edges {
		spans = edgeSpans(s, t, spans)
	}
	if edges {
		spans = base64Spans(s, t, spans)
	}
	if hasEscape(t) {
		s.view, s.pos = unescape(t, s.view[:0], s.pos[:0])
		n := len(spans)
		spans = scan(s, s.view, spans)
		for i := n; i < len(spans); i++ {
			lo, hi := spans[i].lo, spans[i].hi
			spans[i].lo = int(s.pos[lo])
			if hi < len(s.view) {
				spans[i].hi = int(s.pos[hi])
			} else {
				spans[i].hi = len(t)
			}
		}
	}
	return merge(spans, from)
}

// scan appends the ranges of t that are whole pieces.
func scan(s *Secrets, t []byte, spans []span) []span {
	var lo, hi uint64
	lens := s.lens
	for i := 0; i < len(t); i++ {
		c := fold[t[i]]
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
		if !s.ends[c] {
			continue // no piece ends with this byte
		}
		for m := lens; m != 0; m &= m - 1 {
			k := bits.TrailingZeros32(m)
			if k > i+1 {
				break // lengths ascend
			}
			l, h := lo&loMask[k], hi&hiMask[k]
			if s.filter.has(quick(l, h, k)) && s.fps.has(fingerprint(fpWhole, pieceKey{l, h, uint8(k)})) {
				spans = append(spans, span{i + 1 - k, i + 1})
			}
		}
	}
	return spans
}

// edgeSpans appends the longest range at t's start that is a suffix of a
// piece, and the longest at its end that is a prefix of one: the parts of
// a copy cut there.
func edgeSpans(s *Secrets, t []byte, spans []span) []span {
	n := min(len(t), pieceLen-1)
	var k pieceKey
	best := 0
	for j := 1; j <= n; j++ {
		k.hi = k.hi<<8 | k.lo>>56
		k.lo = k.lo<<8 | uint64(fold[t[j-1]])
		k.n = uint8(j)
		if j >= MinSecret && s.efilter.has(edgeHash(fpSuffix, k)) && s.fps.has(fingerprint(fpSuffix, k)) {
			best = j
		}
	}
	if best > 0 {
		spans = append(spans, span{0, best})
	}
	k, best = pieceKey{}, 0
	for j := 1; j <= n; j++ {
		c := uint64(fold[t[len(t)-j]])
		if j <= 8 {
			k.lo |= c << (8 * (j - 1))
		} else {
			k.hi |= c << (8 * (j - 9))
		}
		k.n = uint8(j)
		if j >= MinSecret && s.efilter.has(edgeHash(fpPrefix, k)) && s.fps.has(fingerprint(fpPrefix, k)) {
			best = j
		}
	}
	if best > 0 {
		spans = append(spans, span{len(t) - best, len(t)})
	}
	return spans
}

// merge sorts spans[from:] and joins those that overlap or touch.
func merge(spans []span, from int) []span {
	tail := spans[from:]
	if len(tail) < 2 {
		return spans
	}
	slices.SortFunc(tail, func(a, b span) int { return a.lo - b.lo })
	out := tail[:1]
	for _, sp := range tail[1:] {
		if last := &out[len(out)-1]; sp.lo <= last.hi {
			last.hi = max(last.hi, sp.hi)
		} else {
			out = append(out, sp)
		}
	}
	return spans[:from+len(out)]
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// escapeAt reports the byte an escape at t[i:] stands for and its length:
// %XX (URLs, form bodies) or \u00XX with XX below 80 (JSON's escape of an
// ASCII character); 0 when there is none.
func escapeAt(t []byte, i int) (byte, int) {
	switch {
	case t[i] == '%' && i+2 < len(t):
		if h, l := hexVal(t[i+1]), hexVal(t[i+2]); h >= 0 && l >= 0 {
			return byte(h<<4 | l), 3
		}
	case t[i] == '\\' && i+5 < len(t) && t[i+1] == 'u' && t[i+2] == '0' && t[i+3] == '0':
		if h, l := hexVal(t[i+4]), hexVal(t[i+5]); h >= 0 && h < 8 && l >= 0 {
			return byte(h<<4 | l), 6
		}
	}
	return 0, 0
}

func hasEscape(t []byte) bool {
	for i := indexEscape(t, 0); i >= 0; i = indexEscape(t, i+1) {
		if _, n := escapeAt(t, i); n > 0 {
			return true
		}
	}
	return false
}

// indexEscape is the first '%' or '\\' in t at or after from, or -1.
func indexEscape(t []byte, from int) int {
	i, j := bytes.IndexByte(t[from:], '%'), bytes.IndexByte(t[from:], '\\')
	if i < 0 || j >= 0 && j < i {
		i = j
	}
	if i < 0 {
		return -1
	}
	return from + i
}

// unescape appends to view t with its escapes decoded, and to pos where in
// t each byte of view starts.
func unescape(t []byte, view []byte, pos []int32) ([]byte, []int32) {
	for i := 0; i < len(t); {
		pos = append(pos, int32(i))
		if c, n := escapeAt(t, i); n > 0 {
			view = append(view, c)
			i += n
			continue
		}
		view = append(view, t[i])
		i++
	}
	return view, pos
}

// base64Marker starts the base64 of a data URI.
const base64Marker = "base64,"

// base64Spans appends the ranges of t that are the base64 text of a data
// URI (after "base64,") whose decoding holds a piece of a secret: each
// range widened to the 4-character groups that encode it.
func base64Spans(s *Secrets, t []byte, spans []span) []span {
	for at := 0; ; {
		i := bytes.Index(t[at:], []byte(base64Marker))
		if i < 0 {
			return spans
		}
		start := at + i + len(base64Marker)
		end := start
		for end < len(t) && base64Vals[t[end]] >= 0 {
			end++
		}
		at = end
		// Whole groups with the standard decoder (the alphabet of data
		// URIs), what it does not take and the last group by hand.
		whole := (end - start) / 4 * 4
		s.view = slices.Grow(s.view[:0], whole/4*3+2)[:whole/4*3]
		k := start
		if _, err := base64.StdEncoding.Decode(s.view, t[start:start+whole]); err == nil {
			k += whole
		} else {
			s.view = s.view[:0]
		}
		var acc uint32
		for ; k < end; k++ {
			acc = acc<<6 | uint32(base64Vals[t[k]])
			if (k-start)%4 == 3 {
				s.view = append(s.view, byte(acc>>16), byte(acc>>8), byte(acc))
				acc = 0
			}
		}
		switch (end - start) % 4 { // a last group without its padding
		case 2:
			s.view = append(s.view, byte(acc>>4))
		case 3:
			s.view = append(s.view, byte(acc>>10), byte(acc>>2))
		}
		n := len(spans)
		spans = scan(s, s.view, spans)
		for j := n; j < len(spans); j++ {
			spans[j].lo = start + 4*(spans[j].lo/3)
			spans[j].hi = min(end, start+4*((spans[j].hi+2)/3))
		}
	}
}

// base64Vals are the values of the base64 characters (standard and
// URL-safe alphabets), -1 for any other.
var base64Vals = func() (v [256]int8) {
	for i := range v {
		v[i] = -1
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		v[c] = int8(i)
	}
	v['-'], v['_'] = 62, 63
	return v
}()
