package core_test

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// FuzzValidateKey checks ValidateKey against the rule written out independently: valid
// UTF-8, at most 512 UTF-16 code units, none of / \ # ? U+0000–U+001F U+007F–U+009F.
func FuzzValidateKey(f *testing.F) {
	for _, s := range []string{"", "a", "a/b", "\x7f", "\u0080", "\u00a0", rep("a", 512), rep("a", 513), rep(emoji, 256), rep(emoji, 257), "a\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		err := model.ValidateKey(model.RowKeyName, key)
		var fe *model.FieldError
		if err != nil && (!errors.As(err, &fe) || fe.Field != model.RowKeyName) {
			t.Fatalf("ValidateKey(%q) = %v, want a FieldError for RowKey", key, err)
		}
		units := len(utf16.Encode([]rune(key)))
		bad := !utf8.ValidString(key) || strings.ContainsFunc(key, func(r rune) bool {
			return strings.ContainsRune(`/\#?`, r) || r <= 0x1f || r >= 0x7f && r <= 0x9f
		})
		switch {
		case units > 512 && utf8.ValidString(key):
			wantErr(t, err, model.ErrKeyTooLarge)
		case bad:
			if !errors.Is(err, model.ErrKeyInvalid) && !errors.Is(err, model.ErrKeyTooLarge) {
				t.Fatalf("ValidateKey(%q) = %v, want ErrKeyInvalid", key, err)
			}
		default:
			wantErr(t, err, nil)
		}
	})
}

// keyAlphabet holds characters of every UTF-8 length, including the smallest allowed.
var keyAlphabet = []rune{' ', '!', '0', 'A', 'a', '~', 0xA0, 'é', '€', 0xFFFD, 0x1F600}

func randomKey(r *rand.Rand) string {
	b := make([]rune, r.IntN(4))
	for i := range b {
		b[i] = keyAlphabet[r.IntN(len(keyAlphabet))]
	}
	return string(b)
}

type pkrk struct{ pk, rk string }

func comparePKRK(a, b pkrk) int {
	return cmp.Or(strings.Compare(a.pk, b.pk), strings.Compare(a.rk, b.rk))
}

func inRange(r stored.KeyRange, k pkrk) bool {
	b := stored.KeyAt(k.pk, k.rk)
	return r.From <= b && b < r.To
}

// TestTx_Scan_Ranges reads the ranges back through a store: a scan returns exactly the
// entities the range holds, in key order.
func TestTx_Scan_Ranges(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Scan")
	r := rand.New(rand.NewPCG(7, 8))
	var keys []pkrk
	seen := map[pkrk]bool{}
	for len(keys) < 80 {
		k := pkrk{randomKey(r), randomKey(r)}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
			insert(t, s, "Scan", &model.Entity{PartitionKey: k.pk, RowKey: k.rk})
		}
	}
	slices.SortFunc(keys, comparePKRK)
	ranges := []stored.KeyRange{stored.WholeTable, stored.PartitionRange(keys[10].pk), stored.PointRange(keys[20].pk, keys[20].rk),
		stored.WholeTable.After(keys[30].pk, keys[30].rk), stored.PartitionRange(keys[40].pk).After(keys[40].pk, keys[40].rk),
		{From: stored.KeyAt(keys[5].pk, keys[5].rk), To: stored.KeyAt(keys[60].pk, keys[60].rk)}}
	for i, kr := range ranges {
		var want, got []pkrk
		for _, k := range keys {
			if inRange(kr, k) {
				want = append(want, k)
			}
		}
		err := s.View(func(tx *core.Tx) error {
			return tx.Scan("Scan", kr, func(e *model.Entity) bool {
				got = append(got, pkrk{e.PartitionKey, e.RowKey})
				return true
			})
		})
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("range %d: scan = %q, %v; want %q", i, got, err, want)
		}
	}
}
