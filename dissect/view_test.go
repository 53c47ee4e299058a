package dissect

import "testing"

// TestValueViewText: View is the bytes as they are now, so it must not be
// kept past the PDU's reuse; Text is a copy that stays.
func TestValueViewText(t *testing.T) {
	buf := []byte("hello")
	v := B(buf)
	view, text := v.View(), v.Text()
	copy(buf, "world")
	if text != "hello" {
		t.Errorf("Text %q after the bytes were reused, want %q", text, "hello")
	}
	if view != "world" {
		t.Errorf("View %q after the bytes were reused: not a view (then drop its unsafe)", view)
	}
}
