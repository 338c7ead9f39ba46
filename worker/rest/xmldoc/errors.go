package xmldoc

import "errors"

// ErrXMLInvalid means an ACL or service properties document is malformed or breaks one
// of Azure's rules: 400 InvalidXmlDocument. Errors wrap it with what was wrong.
var ErrXMLInvalid = errors.New("xml document is not valid")
