package ship

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// spool is the on-disk part of the queue: one file per batch, named by
// its sequence number, document count and length before compression
// (0000000000000007-500-81234.bulk.gz), holding the request body as it is
// sent. A file is written to a temporary name and renamed, so a batch is
// on disk whole or not at all; a restart reads the names, oldest first.
type spool struct {
	dir  string
	max  int64 // bound on the files' bytes
	used int64
	lock *os.File
}

const spoolExt = ".bulk.gz"

// openSpool makes the directory if needed, locks it against a second
// mcdissect, removes what a crash left half-written and returns the
// batches an earlier run left, oldest first.
func openSpool(dir string, max int64) (*spool, []*batch, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("ship: spool: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("ship: spool %s: %w", dir, err)
	}
	s := &spool{dir: dir, max: max, lock: lock}
	ents, err := os.ReadDir(dir)
	if err != nil {
		s.close()
		return nil, nil, fmt.Errorf("ship: spool: %w", err)
	}
	var old []*batch
	for _, e := range ents {
		name := e.Name()
		if strings.HasSuffix(name, ".tmp") {
			os.Remove(filepath.Join(dir, name))
			continue
		}
		var b batch
		if !strings.HasSuffix(name, spoolExt) || !parseName(name, &b) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		b.size, b.path, b.replay = fi.Size(), filepath.Join(dir, name), true
		s.used += b.size
		old = append(old, &b)
	}
	slices.SortFunc(old, func(a, b *batch) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	return s, old, nil
}

// parseName reads a spool file's name into b; it reports false for a
// name the spool did not write.
func parseName(name string, b *batch) bool {
	f := strings.Split(strings.TrimSuffix(name, spoolExt), "-")
	if len(f) != 3 {
		return false
	}
	seq, err1 := strconv.ParseUint(f[0], 16, 64)
	docs, err2 := strconv.Atoi(f[1])
	raw, err3 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || err3 != nil || docs <= 0 || raw <= 0 {
		return false
	}
	b.seq, b.docs, b.raw = seq, docs, raw
	return name == fileName(b)
}

func fileName(b *batch) string {
	return fmt.Sprintf("%016x-%d-%d%s", b.seq, b.docs, b.raw, spoolExt)
}

// write puts b's body on disk; the caller has made room (fits).
func (s *spool) write(b *batch) error {
	path := filepath.Join(s.dir, fileName(b))
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b.body)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	b.path = path
	s.used += b.size
	return nil
}

// read loads b's body.
func (s *spool) read(b *batch) ([]byte, error) {
	return os.ReadFile(b.path)
}

// remove deletes b's file.
func (s *spool) remove(b *batch) {
	if b.path == "" {
		return
	}
	os.Remove(b.path)
	b.path = ""
	s.used -= b.size
}

func (s *spool) close() {
	if s.lock != nil {
		unlockDir(s.lock)
		s.lock = nil
	}
}
