package core_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// The data model, "Characters not allowed in PartitionKey and RowKey" and "PartitionKey" /
// "RowKey": at most 1 KiB, read as 1024 bytes of UTF-16 (512 code units).

func TestRule_Key_ForbiddenCharacters(t *testing.T) {
	forbidden := []rune{'/', '\\', '#', '?', 0x00, 0x01, '\t', '\n', '\r', 0x1F, 0x7F, 0x80, 0x85, 0x9F}
	for _, r := range forbidden {
		for _, key := range []string{string(r), "a" + string(r), string(r) + "a", "ab" + string(r) + "cd"} {
			for _, field := range []string{model.PartitionKeyName, model.RowKeyName} {
				err := model.ValidateKey(field, key)
				var fe *model.FieldError
				if !errors.Is(err, model.ErrKeyInvalid) || !errors.As(err, &fe) || fe.Field != field {
					t.Errorf("ValidateKey(%s, %q) = %v, want ErrKeyInvalid for %s", field, key, err, field)
				}
			}
		}
	}
	t.Run("ErrKeyInvalid/invalidUTF8", func(t *testing.T) {
		wantErr(t, model.ValidateKey(model.RowKeyName, "a\xffb"), model.ErrKeyInvalid)
	})
}

func TestRule_Key_AllowedCharacters(t *testing.T) {
	// The neighbours of every forbidden range, and other punctuation.
	allowed := []string{"", " ", "\u00A0", "~", "%", "'", "\"", "&", "*", ":", "+", "=", "!", "a.b", "é", "名", emoji,
		"\uFFFD", "(PartitionKey='x')"}
	for _, key := range allowed {
		wantErr(t, model.ValidateKey(model.PartitionKeyName, key), nil)
	}
	s := newRuleStore(t, core.Options{}, "Keys")
	for i, key := range allowed {
		e := insert(t, s, "Keys", &model.Entity{PartitionKey: key, RowKey: key + itoa(i)})
		if got, err := s.Get("keys", e.PartitionKey, e.RowKey); err != nil || got.PartitionKey != key {
			t.Fatalf("Get(%q): %v %+v", key, err, got)
		}
	}
}

func TestRule_Key_1KiB(t *testing.T) {
	cases := []struct {
		name, key string
		want      error
	}{
		{"OK/512ascii", rep("a", 512), nil},
		{"OK/256astral", rep(emoji, 256), nil},    // 1024 UTF-8 bytes, 512 UTF-16 units
		{"OK/512twoByte", rep("é", 512), nil},     // 1024 UTF-8 bytes, 512 units
		{"OK/512threeByte", rep("€", 512), nil},   // 1536 UTF-8 bytes, 512 units
		{"OK/mixed", rep(emoji, 255) + "ab", nil}, // 512 units
		{"ErrKeyTooLarge/513ascii", rep("a", 513), model.ErrKeyTooLarge},
		{"ErrKeyTooLarge/257astral", rep(emoji, 257), model.ErrKeyTooLarge},
		{"ErrKeyTooLarge/513threeByte", rep("€", 513), model.ErrKeyTooLarge},
		{"ErrKeyTooLarge/mixed", rep(emoji, 256) + "a", model.ErrKeyTooLarge},
	}
	s := newRuleStore(t, core.Options{}, "Keys")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, field := range []string{model.PartitionKeyName, model.RowKeyName} {
				wantErr(t, model.ValidateKey(field, c.key), c.want)
			}
			for _, e := range []*model.Entity{{PartitionKey: c.key, RowKey: "r"}, {PartitionKey: "p", RowKey: c.key}} {
				_, err := s.Apply("Keys", core.Op{Kind: core.OpInsert, Entity: e})
				wantErr(t, err, c.want)
				if c.want == nil {
					if _, err := s.Get("Keys", e.PartitionKey, e.RowKey); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

func TestRule_Key_CheckedOnEveryWrite(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Keys")
	kinds := []core.OpKind{core.OpInsert, core.OpReplace, core.OpMerge, core.OpInsertOrReplace, core.OpInsertOrMerge, core.OpDelete}
	for _, k := range kinds {
		t.Run(k.String(), func(t *testing.T) {
			_, err := s.Apply("Keys", core.Op{Kind: k, Entity: &model.Entity{PartitionKey: "a/b", RowKey: "r"}})
			wantErr(t, err, model.ErrKeyInvalid)
			_, err = s.Apply("Keys", core.Op{Kind: k, Entity: &model.Entity{PartitionKey: "p", RowKey: rep("a", 513)}})
			wantErr(t, err, model.ErrKeyTooLarge)
			_, err = s.Apply("Keys", core.Op{Kind: k})
			wantErr(t, err, model.ErrKeyMissing)
		})
	}
}
