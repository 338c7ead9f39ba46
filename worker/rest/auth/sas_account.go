package auth

import "strings"

// Letters an account SAS may hold: its permissions (those of other services are accepted
// and ignored), services and resource types.
const (
	accountPermissionLetters = "rwdlacupxytfi"
	accountServiceLetters    = "bqtf"
)

// verifyAccountSAS checks an account SAS.
func verifyAccountSAS(r *Request, f sasFields) (*Principal, error) {
	if f.sv < "2015-04-05" {
		return nil, notWellFormed("An account SAS needs version 2015-04-05 or later.")
	}
	if f.ss == "" || f.srt == "" || f.sp == "" || f.se == "" {
		return nil, notWellFormed("An account SAS needs ss, srt, sp and se.")
	}
	if sts, ok := accountSignatureMatches(r.Account, f); !ok {
		return nil, authFailed("Signature did not match. String to sign used was " + sts)
	}
	perms, ok1 := parseLetters(f.sp, accountPermissionLetters)
	resources, ok2 := parseResourceTypes(f.srt)
	if !ok1 || !ok2 || !onlyLetters(f.ss, accountServiceLetters) {
		return nil, notWellFormed("Unknown letters in sp, ss or srt.")
	}
	if !strings.Contains(f.ss, "t") {
		return nil, fail(ErrServiceMismatch, "")
	}
	if err := checkConstraints(r, f.st, f.se, f.spr, f.sip); err != nil {
		return nil, err
	}
	return &Principal{Kind: AccountSAS, Account: r.Account.Name, perms: perms, resources: resources}, nil
}

// accountSignatureMatches checks the signature against the string to sign of f's version,
// returning that string. From 2020-12-06 the string ends with ses; with no ses the older
// form is accepted as well, because the Go SDK signs it whatever the version.
func accountSignatureMatches(a Account, f sasFields) (string, bool) {
	parts := []string{a.Name, f.sp, f.ss, f.srt, f.st, f.se, f.sip, f.spr, f.sv}
	legacy := strings.Join(parts, "\n") + "\n"
	if f.sv < "2020-12-06" {
		return legacy, a.matches(legacy, f.sig)
	}
	scoped := legacy + f.ses + "\n"
	if a.matches(scoped, f.sig) || (f.ses == "" && a.matches(legacy, f.sig)) {
		return scoped, true
	}
	return scoped, false
}

// parseResourceTypes parses srt, letters of "sco" each at most once.
func parseResourceTypes(s string) (ResourceType, bool) {
	var rt ResourceType
	for i := 0; i < len(s); i++ {
		bit := map[byte]ResourceType{'s': Service, 'c': Container, 'o': Object}[s[i]]
		if bit == 0 || rt&bit != 0 {
			return 0, false
		}
		rt |= bit
	}
	return rt, true
}

// onlyLetters reports whether s is made of letters of known, each at most once.
func onlyLetters(s, known string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(known, rune(s[i])) || strings.IndexByte(s[i+1:], s[i]) >= 0 {
			return false
		}
	}
	return true
}
