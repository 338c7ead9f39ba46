package model_test

import (
	"errors"
	"testing"
)

// wantErr fails the test unless errors.Is(err, want); want nil means no error.
func wantErr(t testing.TB, err, want error) {
	t.Helper()
	if want == nil && err != nil || want != nil && !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

// emoji is U+1F600, two UTF-16 code units and four UTF-8 bytes.
const emoji = "\U0001F600"
