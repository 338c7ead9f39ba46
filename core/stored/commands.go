package stored

import (
	"bytes"
	"errors"
	"strconv"
)

// ErrChangeSetInvalid means a change set or snapshot is not a sequence of buntdb commands
// in RESP array form ("*n\r\n" then n "$len\r\n{bytes}\r\n" arguments).
var ErrChangeSetInvalid = errors.New("change set is malformed")

// AppendCommand appends one command in RESP array form, the format buntdb.Load reads
// and EachCommand splits: "set" key value, or "del" key.
func AppendCommand(b []byte, args ...string) []byte {
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, '\r', '\n')
		b = append(b, a...)
		b = append(b, '\r', '\n')
	}
	return b
}

// EachCommand calls fn with each command of a change set or snapshot, the command's bytes
// as they stand in cs and its key (every command of a store's change sets names one key:
// "set" key value, "del" key). It stops at the first malformed command.
func EachCommand(cs []byte, fn func(cmd []byte, key string) error) error {
	for len(cs) > 0 {
		n, err := commandLen(cs)
		if err != nil {
			return err
		}
		key, err := commandKey(cs[:n])
		if err != nil {
			return err
		}
		if err := fn(cs[:n], key); err != nil {
			return err
		}
		cs = cs[n:]
	}
	return nil
}

// commandLen returns the length of the command cs starts with.
func commandLen(cs []byte) (int, error) {
	argc, pos, err := respNumber(cs, 0, '*')
	if err != nil || argc < 2 {
		return 0, ErrChangeSetInvalid
	}
	for range argc {
		if pos, err = respArg(cs, pos, nil); err != nil {
			return 0, err
		}
	}
	return pos, nil
}

// commandKey returns the second argument of a well-formed command: its key.
func commandKey(cmd []byte) (string, error) {
	_, pos, _ := respNumber(cmd, 0, '*')
	var name, key []byte
	pos, _ = respArg(cmd, pos, &name)
	if _, err := respArg(cmd, pos, &key); err != nil {
		return "", err
	}
	if n := string(name); n != "set" && n != "del" && n != "SET" && n != "DEL" {
		return "", ErrChangeSetInvalid // what buntdb writes (it reads mixed case too; this store never writes it)
	}
	return string(key), nil
}

// respArg reads the bulk string at pos, into arg if it is not nil, and returns the
// position after it.
func respArg(cs []byte, pos int, arg *[]byte) (int, error) {
	n, pos, err := respNumber(cs, pos, '$')
	if err != nil || n > len(cs)-pos-2 || cs[pos+n] != '\r' || cs[pos+n+1] != '\n' {
		return 0, ErrChangeSetInvalid
	}
	if arg != nil {
		*arg = cs[pos : pos+n]
	}
	return pos + n + 2, nil
}

// respNumber reads "{mark}{digits}\r\n" at pos and returns the number and the position
// after it.
func respNumber(cs []byte, pos int, mark byte) (int, int, error) {
	if pos >= len(cs) || cs[pos] != mark {
		return 0, 0, ErrChangeSetInvalid
	}
	end := bytes.IndexByte(cs[pos:], '\r')
	if end < 2 || end > 12 || pos+end+1 >= len(cs) || cs[pos+end+1] != '\n' {
		return 0, 0, ErrChangeSetInvalid
	}
	n, err := strconv.Atoi(string(cs[pos+1 : pos+end]))
	if err != nil || n < 0 {
		return 0, 0, ErrChangeSetInvalid
	}
	return n, pos + end + 2, nil
}
