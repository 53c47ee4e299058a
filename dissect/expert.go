package dissect

import (
	"fmt"
	"strings"
)

// Severity of an expert item, as in Wireshark's expert info.
type Severity uint8

const (
	SevNote Severity = iota + 1
	SevWarn
	SevError
)

func (s Severity) String() string {
	switch s {
	case SevNote:
		return "note"
	case SevWarn:
		return "warning"
	case SevError:
		return "error"
	}
	return fmt.Sprintf("Unknown (%d)", uint8(s))
}

// ExpertInfo is a registered kind of expert item.
type ExpertInfo struct {
	Name     string // dotted, e.g. "query.session_id.unmasked_bits"
	Severity Severity
	Summary  string // what the item means in general
}

// Expert registers an expert item under the registry's protocol prefix. A
// name registered twice panics at start-up.
func (r *Registry) Expert(name string, sev Severity, summary string) *ExpertInfo {
	if name != r.Proto && !strings.HasPrefix(name, r.Proto+".") {
		panic("dissect: expert " + name + " outside protocol " + r.Proto)
	}
	e := &ExpertInfo{Name: name, Severity: sev, Summary: summary}
	global.Lock()
	defer global.Unlock()
	if _, dup := global.experts[name]; dup {
		panic("dissect: expert registered twice: " + name)
	}
	global.experts[name] = e
	r.experts = append(r.experts, e)
	return e
}

// ExpertItem is one expert item in a PDU, hung on the node it concerns.
type ExpertItem struct {
	Node int32 // index into PDU.Nodes
	Info *ExpertInfo
	Msg  string
}
