// The settings operations: table ACLs (stored access policies) and the account's service
// properties and stats, all in XML.

package rest

import (
	"bytes"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/xmldoc"
)

// propertiesMeta is the store metadata name of the service properties document.
const propertiesMeta = "serviceProperties"

// getACL serves Get Table ACL: GET /t?comp=acl.
func (c *call) getACL() {
	if err := c.authorize(auth.GetTableACL, c.res.table); err != nil {
		c.fail(err)
		return
	}
	var t *core.Table
	err := c.acct.Store.View(func(tx *core.Tx) (err error) {
		t, err = tx.Table(c.res.table)
		return err
	})
	if err != nil {
		c.fail(err)
		return
	}
	var b bytes.Buffer
	xmldoc.WriteACL(&b, t.Policies)
	c.writeXML(exchange.StatusOK, b.Bytes())
}

// setACL serves Set Table ACL: PUT /t?comp=acl with <SignedIdentifiers>.
func (c *call) setACL() {
	if err := c.authorize(auth.SetTableACL, c.res.table); err != nil {
		c.fail(err)
		return
	}
	body, err := c.readXML()
	if err != nil {
		c.fail(err)
		return
	}
	policies, err := xmldoc.ParseACL(bytes.NewReader(body))
	if err == nil {
		err = c.acct.Store.Update(func(tx *core.Tx) error { return tx.SetAccessPolicies(c.res.table, policies) })
	}
	if err != nil {
		c.fail(err)
		return
	}
	c.noContent(exchange.StatusNoContent)
}

// getProperties serves Get Table Service Properties: GET /?restype=service&comp=properties.
func (c *call) getProperties() {
	if err := c.authorize(auth.GetServiceProperties, ""); err != nil {
		c.fail(err)
		return
	}
	p, err := c.acct.properties()
	if err != nil {
		c.fail(err)
		return
	}
	var b bytes.Buffer
	xmldoc.WriteProperties(&b, p)
	c.writeXML(exchange.StatusOK, b.Bytes())
}

// setProperties serves Set Table Service Properties: the parts the body gives replace the
// stored ones. It answers 202 Accepted, as Azure does.
func (c *call) setProperties() {
	if err := c.authorize(auth.SetServiceProperties, ""); err != nil {
		c.fail(err)
		return
	}
	body, err := c.readXML()
	if err != nil {
		c.fail(err)
		return
	}
	update, err := xmldoc.ParseProperties(bytes.NewReader(body))
	if err == nil {
		err = c.acct.Store.Update(func(tx *core.Tx) error {
			old, err := storedProperties(tx)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			xmldoc.WriteProperties(&b, xmldoc.Merge(old, update))
			return tx.SetMeta(propertiesMeta, b.String())
		})
	}
	if err != nil {
		c.fail(err)
		return
	}
	c.noContent(exchange.StatusAccepted)
}

// getStats serves Get Table Service Stats: GET /?restype=service&comp=stats. There is no
// replica, so geo-replication is always live and synced now.
func (c *call) getStats() {
	if err := c.authorize(auth.GetServiceStats, ""); err != nil {
		c.fail(err)
		return
	}
	if !c.secondary {
		c.fail(ErrStatsOnPrimary)
		return
	}
	var b bytes.Buffer
	xmldoc.WriteStats(&b, c.now)
	c.writeXML(exchange.StatusOK, b.Bytes())
}

// readXML reads the XML body of an ACL or service properties request; a JSON one is
// ErrJSONNotSupported.
func (c *call) readXML() ([]byte, error) {
	if mt, _, _ := exchange.ParseMediaType(c.r.Header.Get("Content-Type")); strings.Contains(mt, "json") {
		return nil, ErrJSONNotSupported
	}
	return c.readBody(maxSmallBody)
}

// storedProperties reads the stored service properties, defaults where never set.
func storedProperties(tx *core.Tx) (*xmldoc.Properties, error) {
	raw, ok, err := tx.Meta(propertiesMeta)
	if err != nil || !ok {
		return xmldoc.DefaultProperties(), err
	}
	p, err := xmldoc.ParseProperties(bytes.NewReader([]byte(raw)))
	if err != nil {
		return nil, err
	}
	return xmldoc.Merge(xmldoc.DefaultProperties(), p), nil
}
