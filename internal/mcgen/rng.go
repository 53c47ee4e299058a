package mcgen

// rng is splitmix64: tiny, fast, and its sequence for a seed never changes
// with the Go release, so a seed names the same capture forever.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is uniform in [0, n) for 0 < n < 2^32.
func (r *rng) intn(n int) int { return int(((r.next() >> 32) * uint64(n)) >> 32) }

// between is uniform in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// permille is true with probability pm/1000.
func (r *rng) permille(pm int) bool { return r.intn(1000) < pm }

// pick returns one of the strings.
func (r *rng) pick(s []string) string { return s[r.intn(len(s))] }
