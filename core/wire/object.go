package wire

// maxDepth bounds the nesting of ignored values (odata.* members) that the scanner skips.
const maxDepth = 64

// skip scans and discards any JSON value, nested up to maxDepth.
func (s *scanner) skip(depth int) error {
	mark := len(s.buf)
	defer func() { s.buf = s.buf[:mark] }()
	k, _, _, err := s.value()
	if err != nil || k != kindNested {
		return err
	}
	if depth >= maxDepth {
		return s.fail("nesting too deep")
	}
	if s.data[s.pos] == '[' {
		return s.skipArray(depth)
	}
	return s.object(func(_ span) error { return s.skip(depth + 1) })
}

func (s *scanner) skipArray(depth int) error {
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if err := s.skip(depth + 1); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}

// object scans a JSON object (s.pos at its '{'), calling member with each key's span and
// s.pos at the member's value; member must consume the value.
func (s *scanner) object(member func(key span) error) error {
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if s.peek() != '"' {
			return s.fail("expected a string key")
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		if s.peek() != ':' {
			return s.fail("expected ':'")
		}
		s.pos++
		if err := member(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

// topObject scans a whole body that must be one JSON object and nothing after it.
func (s *scanner) topObject(member func(key span) error) error {
	switch c := s.peek(); c {
	case '{':
	case '[', '"', 't', 'f', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return ErrNotObject
	case 0:
		return s.fail("empty body")
	default:
		return s.fail("invalid character " + quoteByte(c))
	}
	if err := s.object(member); err != nil {
		return err
	}
	if s.peek(); s.pos < len(s.data) { // peek's 0 is also a NUL byte
		return s.fail("data after the JSON object")
	}
	return nil
}
