package xmldoc

import "github.com/tabletopdb/tabletop/core/azerr"

// ErrXMLInvalid means an ACL or service properties document is malformed or breaks one
// of Azure's rules: 400 InvalidXmlDocument. Errors wrap it with what was wrong.
var ErrXMLInvalid = azerr.New(azerr.InvalidXmlDocument, "xml document is not valid")
