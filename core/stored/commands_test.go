package stored

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

func TestEachCommand(t *testing.T) {
	cs := AppendCommand(AppendCommand(nil, "set", "e\x00t\x00a\x00b", "v\r\n"), "del", "k")
	t.Run("OK", func(t *testing.T) {
		var keys []string
		var all []byte
		err := EachCommand(cs, func(cmd []byte, key string) error {
			keys, all = append(keys, key), append(all, cmd...)
			return nil
		})
		if err != nil || fmt.Sprintf("%q", keys) != `["e\x00t\x00a\x00b" "k"]` || !bytes.Equal(all, cs) {
			t.Fatalf("keys %q, err %v", keys, err)
		}
	})
	for name, bad := range map[string]string{
		"Cut":      string(cs[:len(cs)-1]),
		"Inline":   "set k v\r\n",
		"OneArg":   "*1\r\n$3\r\ndel\r\n",
		"Command":  string(AppendCommand(nil, "ex", "k", "1")),
		"Length":   "*2\r\n$3\r\ndel\r\n$9\r\nk\r\n",
		"Negative": "*2\r\n$3\r\ndel\r\n$-1\r\n",
	} {
		t.Run("ErrChangeSetInvalid/"+name, func(t *testing.T) {
			err := EachCommand([]byte(bad), func([]byte, string) error { return nil })
			if !errors.Is(err, ErrChangeSetInvalid) {
				t.Fatalf("err %v", err)
			}
		})
	}
}

func FuzzEachCommand(f *testing.F) {
	f.Add(AppendCommand(AppendCommand(nil, "set", "k", "v"), "del", "k"))
	f.Add([]byte("*2\r\n$3\r\ndel\r\n$1\r\nk\r\n"))
	f.Fuzz(func(t *testing.T, cs []byte) {
		var all []byte
		err := EachCommand(cs, func(cmd []byte, key string) error {
			if !bytes.Contains(cmd, []byte(key)) {
				t.Fatalf("key %q not in command %q", key, cmd)
			}
			all = append(all, cmd...)
			return nil
		})
		if err == nil && !bytes.Equal(all, cs) {
			t.Fatalf("commands %q do not add up to %q", all, cs)
		}
	})
}
