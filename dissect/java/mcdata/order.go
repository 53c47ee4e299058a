package mcdata

import "sort"

// snapshotBit marks the protocol numbers of snapshots, pre-releases and
// release candidates since 1.16.4-pre1 (0x40000000 + n).
const snapshotBit = 1 << 30

// IsRelease reports whether name is a release's ("1.20.4", "26.1.2"): digits
// and dots only. Snapshots ("21w07a", "26.4-snapshot-6"), pre-releases
// ("1.9.1-pre2") and release candidates ("1.16-rc1") are not.
func IsRelease(name string) bool {
	dots := 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '.':
			if i == 0 || i == len(name)-1 || name[i-1] == '.' {
				return false
			}
			dots++
		case c < '0' || c > '9':
			return false
		}
	}
	return dots > 0
}

// ages maps every version name of b.Protocols to its place in release
// order, the oldest 0.
func (b *Blob) ages() map[string]int {
	b.ageOnce.Do(func() {
		b.age = make(map[string]int, len(b.Protocols))
		for i, p := range b.Protocols { // newest first
			if _, dup := b.age[p.Name]; !dup {
				b.age[p.Name] = len(b.Protocols) - 1 - i
			}
		}
	})
	return b.age
}

// newer reports whether version name x came out after y: by their places
// in minecraft-data's list of versions (protocolVersions.json), which is
// in release order; by protocol number, snapshots' last, when the list
// lacks one of them.
func (b *Blob) newer(x, y VersionName) bool {
	age := b.ages()
	ax, okx := age[x.Name]
	ay, oky := age[y.Name]
	if okx && oky {
		return ax > ay
	}
	return x.Protocol > y.Protocol
}

// newestName is the newest of v's names; releases (IsRelease) count
// before every other name when only is true.
func (b *Blob) newestName(v *Version, releases bool) (VersionName, bool) {
	var best VersionName
	found := false
	for _, n := range v.Names {
		if releases && !IsRelease(n.Name) {
			continue
		}
		if !found || b.newer(n, best) {
			best, found = n, true
		}
	}
	return best, found
}

// NewestFirst lists b.Versions from the newest release's data to the
// oldest, then the data of versions that are no release (snapshots,
// pre-releases and release candidates: 21w07a, 1.16-rc1), newest first:
// the order in which the field table (dissect/java.FillFields) decides
// which type keeps a field's plain name, so that the newest release
// decides it, never a snapshot.
func (b *Blob) NewestFirst() []*Version {
	type ranked struct {
		v   *Version
		rel bool
		n   VersionName
	}
	rs := make([]ranked, 0, len(b.Versions))
	for _, v := range b.Versions {
		n, rel := b.newestName(v, true)
		if !rel {
			n, _ = b.newestName(v, false)
		}
		rs = append(rs, ranked{v, rel, n})
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].rel != rs[j].rel {
			return rs[i].rel
		}
		return b.newer(rs[i].n, rs[j].n)
	})
	out := make([]*Version, len(rs))
	for i, r := range rs {
		out[i] = r.v
	}
	return out
}

// ReleaseAtOrBelow is the protocol number of the newest release at or
// before proto in release order: proto itself for a release's number (below
// 2^30); for a snapshot's, the release the list names before it (21w07a,
// a 1.17 snapshot: 1.16.5's 754), or, for a snapshot newer than the list,
// the newest release's. A snapshot's own number compares with no release's:
// what changed with the releases (the configuration state of 1.20.2, the
// login's forms) is decided by this one.
func (b *Blob) ReleaseAtOrBelow(proto int) int {
	if proto < snapshotBit {
		return proto
	}
	for _, p := range b.fromSnapshot(proto) {
		if p.Protocol < snapshotBit && IsRelease(p.Name) {
			return p.Protocol
		}
	}
	if _, n := b.newestRelease(); n.Protocol > 0 {
		return n.Protocol
	}
	return proto
}

// fromSnapshot is minecraft-data's list of versions (newest first) from a
// snapshot's place in it (or the newest snapshot before it, for one newer
// than the list) towards older versions; none for a number the list has
// no snapshot at or below.
func (b *Blob) fromSnapshot(proto int) []VersionName {
	for i, p := range b.Protocols {
		if p.Protocol >= snapshotBit && p.Protocol <= proto {
			return b.Protocols[i:]
		}
	}
	return nil
}
