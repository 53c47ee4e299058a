package dissect

// The "mc" registry holds what every protocol shares: bytes left undissected,
// and the expert items the cursor adds on its own.
var (
	Core = NewRegistry("mc", "Minecraft")

	FieldUndissected       = Core.Add(Field{Name: "mc.undissected", Label: "Undissected bytes", Type: FTBytes, Opaque: true})
	FieldUndissectedLength = Core.Uint("mc.undissected.length", "Undissected length", BaseDec, nil)

	ExpertTruncated   = Core.Expert("mc.truncated", SevWarn, "the capture cut a field short")
	ExpertMalformed   = Core.Expert("mc.malformed", SevError, "the bytes are present but not what the protocol allows")
	ExpertUndissected = Core.Expert("mc.undissected", SevWarn, "bytes that no field explains")
)
