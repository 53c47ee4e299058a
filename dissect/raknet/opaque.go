package raknet

// The fields whose bytes the dissector shows without reading them: --redact
// masks them whole (dissect.Field.Opaque), since they may hold a secret of
// another protocol.
func init() {
	fPayload.Opaque = true
	fTrailing.Opaque = true
}
