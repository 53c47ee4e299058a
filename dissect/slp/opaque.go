package slp

// The fields whose bytes the dissector shows without reading them: --redact
// masks them whole (dissect.Field.Opaque), since they may hold a secret of
// another protocol (a Classic stream decoded as SLP by a -d rule).
func init() {
	FieldData.Opaque = true
	FieldLegacyTrailing.Opaque = true
}
