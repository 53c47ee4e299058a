// Package all imports every protocol mcdissect dissects, for their
// registrations (package protocols): the one list of them. Adding a
// protocol adds a line here.
package all

import (
	_ "github.com/mcdissect/mcdissect/dissect/classic"
	_ "github.com/mcdissect/mcdissect/dissect/query"
	_ "github.com/mcdissect/mcdissect/dissect/raknet"
	_ "github.com/mcdissect/mcdissect/dissect/slp"
)
