package inflate

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"errors"
	"io"
	"sync"
	"testing"
)

// readers keeps compress/zlib's readers (some 40 KB each) for reuse.
var readers sync.Pool

// zlibPrefix is what the package comment promises Prefix returns, as
// compress/zlib computes it: the first n bytes when zlib delivers that
// many (whatever it reports afterwards), else all it delivers and how it
// ends.
func zlibPrefix(z []byte, n int) ([]byte, error) {
	zr, _ := readers.Get().(io.ReadCloser)
	var err error
	if zr == nil {
		zr, err = zlib.NewReader(bytes.NewReader(z))
	} else {
		err = zr.(zlib.Resetter).Reset(bytes.NewReader(z), nil)
	}
	if err != nil {
		return nil, err
	}
	defer readers.Put(zr)
	out := make([]byte, 0, 512)
	for len(out) < n {
		if len(out) == cap(out) {
			out = append(out, 0)[:len(out)]
		}
		k, err := zr.Read(out[len(out):min(cap(out), n)])
		out = out[:len(out)+k]
		if len(out) >= n {
			break
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// kind names an error's class, the same for Prefix's errors and
// compress/zlib's.
func kind(err error) string {
	var ce *CorruptError
	var fe flate.CorruptInputError
	switch {
	case err == nil:
		return "ok"
	case err == io.ErrUnexpectedEOF:
		return "unexpected EOF"
	case err == ErrHeader || err == zlib.ErrHeader:
		return "header"
	case err == ErrDictionary || err == zlib.ErrDictionary:
		return "dictionary"
	case err == ErrChecksum || err == zlib.ErrChecksum:
		return "checksum"
	case errors.As(err, &ce), errors.As(err, &fe):
		return "corrupt"
	}
	return "other: " + err.Error()
}

// checkPrefix checks Prefix against compress/zlib on z for n bytes, with
// d (reused) and with a fresh Decoder appending to a buffer that holds
// bytes already.
func checkPrefix(t *testing.T, d *Decoder, z []byte, n int) {
	t.Helper()
	want, wantErr := zlibPrefix(z, n)
	got, err := d.Prefix(nil, z, n)
	if kind(err) != kind(wantErr) || !bytes.Equal(got, want) {
		t.Fatalf("Prefix(%x, %d) = %d bytes, %v; compress/zlib: %d bytes, %v\n got %x\nwant %x",
			z, n, len(got), err, len(want), wantErr, got, want)
	}
	pre := []byte("pre")
	got, err = Prefix(pre[:3:3], z, n)
	if kind(err) != kind(wantErr) || !bytes.Equal(got[:3], pre) || !bytes.Equal(got[3:], want) {
		t.Fatalf("Prefix(%q, %x, %d) = %x, %v; want %q + %x, %v", pre, z, n, got, err, pre, want, wantErr)
	}
}
