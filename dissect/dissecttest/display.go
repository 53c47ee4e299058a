package dissecttest

import "github.com/mcdissect/mcdissect/dissect"

// Display is a node's value as the tree shows it (dissect.AppendValue), as
// a string: what the protocol packages' tests compare.
func Display(n *dissect.Node) string { return string(dissect.AppendValue(nil, n)) }
