package ek

import _ "github.com/mcdissect/mcdissect/protocols/all" // the protocols the pipeline routes to
