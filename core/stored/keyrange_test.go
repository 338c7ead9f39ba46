package stored

import (
	"cmp"
	"math/rand/v2"
	"strings"
	"testing"
)

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

func inRange(r KeyRange, k pkrk) bool {
	b := KeyAt(k.pk, k.rk)
	return r.From <= b && b < r.To
}

// TestBound_Order: the encoded bounds sort as (PartitionKey, RowKey) tuples, and the
// partition, point and "after" ranges hold exactly the keys they name.
func TestBound_Order(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	keys := make([]pkrk, 300)
	for i := range keys {
		keys[i] = pkrk{randomKey(r), randomKey(r)}
	}
	for _, a := range keys[:60] {
		for _, b := range keys {
			if got, want := cmp.Compare(KeyAt(a.pk, a.rk), KeyAt(b.pk, b.rk)), comparePKRK(a, b); got != want {
				t.Fatalf("KeyAt order of %q and %q is %d, want %d", a, b, got, want)
			}
			if got, want := inRange(PartitionRange(a.pk), b), a.pk == b.pk; got != want {
				t.Fatalf("PartitionRange(%q) holds %q: %v", a.pk, b, got)
			}
			if got, want := inRange(PointRange(a.pk, a.rk), b), a == b; got != want {
				t.Fatalf("PointRange(%q) holds %q: %v", a, b, got)
			}
			if got, want := inRange(WholeTable.After(a.pk, a.rk), b), comparePKRK(b, a) > 0; got != want {
				t.Fatalf("After(%q) holds %q: %v", a, b, got)
			}
		}
	}
}

func TestKeyRange_Intersect(t *testing.T) {
	p, q := PartitionRange("p"), PartitionRange("q")
	if !p.Intersect(q).Empty() {
		t.Error("two partitions intersect")
	}
	if got := WholeTable.Intersect(p); got != p {
		t.Errorf("WholeTable ∩ p = %+v", got)
	}
	if WholeTable.Empty() || p.Empty() || PointRange("p", "r").Empty() {
		t.Error("a non-empty range is Empty")
	}
	if !(KeyRange{From: KeyAt("b", ""), To: KeyAt("a", "")}).Empty() {
		t.Error("an inverted range is not Empty")
	}
	if got := p.After("p", "m"); got.From != KeyAfter("p", "m") || got.To != p.To {
		t.Errorf("After = %+v", got)
	}
	if !p.After("q", "").Empty() {
		t.Error("after a later partition is not empty")
	}
}
