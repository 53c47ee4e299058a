package classic

// The levels a run's connections are joining are charged to the memory
// budget (protocols.Run.Budget), which a hostile capture must not pass
// by opening many connections that each send a level and never finish
// it: each level is bounded by MaxCompressed, their sum by the budget.
// When a charge is refused, the level least recently begun is given up
// (its joined bytes let go, the level not inflated), and says so at its
// next chunk and at its finalize; then, if still refused, the level being
// joined.

// charger is the memory budget's account (budget.Account).
type charger interface {
	Charge(n int64) bool
	Credit(n int64)
}

// droppedWhy is what a level given up for the budget says.
const droppedWhy = "the level's joined data was given up to stay within the memory budget (the levels of other connections held it); the level is not inflated"

// levelHolders is a run's connections holding level data, oldest first.
type levelHolders struct {
	acct  charger // nil: each level is bounded by MaxCompressed only
	conns []*Conn
}

// charge charges n more bytes to c's level, giving up the oldest other
// levels while the budget refuses. It reports false when even that does
// not make room.
func (h *levelHolders) charge(c *Conn, n int64) bool {
	if h == nil || h.acct == nil || n <= 0 {
		return true
	}
	for !h.acct.Charge(n) {
		if h.shedOne(c) == 0 {
			return false
		}
	}
	if c.level.charged == 0 {
		h.conns = append(h.conns, c)
	}
	c.level.charged += n
	return true
}

// shed gives up levels, oldest first, until need bytes are credited back:
// the budget's request, on the decoding goroutine.
func (h *levelHolders) shed(need int64) int64 {
	var got int64
	for got < need {
		n := h.shedOne(nil)
		if n == 0 {
			break
		}
		got += n
	}
	return got
}

// shedOne gives up the oldest level other than keep's and returns the
// bytes it held.
func (h *levelHolders) shedOne(keep *Conn) int64 {
	for _, c := range h.conns {
		if c != keep {
			n := c.level.charged
			h.drop(c)
			return n
		}
	}
	return 0
}

// drop gives up c's level: its data let go, the level marked dropped.
func (h *levelHolders) drop(c *Conn) {
	l := &c.level
	h.credit(l)
	putLevelBuf(l.data[0])
	putLevelBuf(l.data[1])
	l.data = [2][]byte{}
	l.dropped = true
}

// credit gives l's charged bytes back and forgets its connection.
func (h *levelHolders) credit(l *level) {
	if h == nil || l.charged == 0 {
		return
	}
	h.acct.Credit(l.charged)
	l.charged = 0
	for i, c := range h.conns {
		if &c.level == l {
			h.conns = append(h.conns[:i], h.conns[i+1:]...)
			break
		}
	}
}

// levels is the run's level holders: its session's.
func (c *Conn) levels() *levelHolders {
	if c.sess == nil {
		return nil
	}
	return &c.sess.levels
}
