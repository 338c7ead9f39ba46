package auth

import "testing"

func TestParseAccounts(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		got, err := ParseAccounts("alpha:AAAA:BBBB; beta:CCCC")
		if err != nil || len(got) != 2 || got[0].Name != "alpha" || len(got[0].Keys) != 2 || got[1].Name != "beta" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("Default", func(t *testing.T) {
		got, err := ParseAccounts("")
		if err != nil || len(got) != 1 || got[0].Name != "devstoreaccount1" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("ErrAccountInvalid", func(t *testing.T) {
		for _, s := range []string{"alpha", "Alpha:AAAA", "alpha:not base64!"} {
			if _, err := ParseAccounts(s); err == nil {
				t.Errorf("ParseAccounts(%q) succeeded", s)
			}
		}
	})
}
