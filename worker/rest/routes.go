package rest

import (
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// route is one operation of the service: the method and resource it answers, the comp
// query parameter it requires, and whether its errors are XML.
type route struct {
	method string
	kind   kind
	comp   string
	xml    bool
	serve  func(c *call)
}

// routes lists every operation of the Table service. Merge arrives as PATCH, as MERGE, or
// as POST with X-HTTP-Method: MERGE (see effectiveMethod).
var routes = []route{
	{"GET", kindTables, "", false, (*call).queryTables},             // Query Tables: GET /Tables
	{"POST", kindTables, "", false, (*call).createTable},            // Create Table: POST /Tables
	{"GET", kindTable, "", false, (*call).getTable},                 // Query Tables for one: GET /Tables('t')
	{"DELETE", kindTable, "", false, (*call).deleteTable},           // Delete Table: DELETE /Tables('t')
	{"GET", kindEntities, "acl", true, (*call).getACL},              // Get Table ACL: GET /t?comp=acl
	{"PUT", kindEntities, "acl", true, (*call).setACL},              // Set Table ACL: PUT /t?comp=acl
	{"GET", kindService, "properties", true, (*call).getProperties}, // Get Service Properties: GET /?restype=service&comp=properties
	{"PUT", kindService, "properties", true, (*call).setProperties}, // Set Service Properties: PUT /?restype=service&comp=properties
	{"GET", kindService, "stats", true, (*call).getStats},           // Get Service Stats: GET /?restype=service&comp=stats
	{"GET", kindEntities, "", false, (*call).queryEntities},         // Query Entities: GET /t()
	{"GET", kindEntities, compChanges, false, (*call).queryChanges}, // the change feed (Tabletop's extension): GET /t()?comp=changes
	{"POST", kindEntities, "", false, (*call).writeEntity},          // Insert Entity: POST /t
	{"GET", kindEntities, compIndexes, false, (*call).listIndexes},  // secondary indexes (Tabletop's extension): GET /t?comp=indexes
	{"PUT", kindEntities, compIndexes, false, (*call).createIndex},  // PUT /t?comp=indexes&property=P
	{"DELETE", kindEntities, compIndexes, false, (*call).dropIndex}, // DELETE /t?comp=indexes&property=P
	{"GET", kindEntity, "", false, (*call).getEntity},               // Get Entity: GET /t(PartitionKey='p',RowKey='r')
	{"PUT", kindEntity, "", false, (*call).writeEntity},             // Update or Insert Or Replace Entity: PUT /t(…)
	{"PATCH", kindEntity, "", false, (*call).writeEntity},           // Merge or Insert Or Merge Entity: PATCH /t(…)
	{"MERGE", kindEntity, "", false, (*call).writeEntity},           // the same: MERGE /t(…), or POST with X-HTTP-Method
	{"DELETE", kindEntity, "", false, (*call).writeEntity},          // Delete Entity: DELETE /t(…)
	{"POST", kindBatch, "", false, (*call).batch},                   // Entity Group Transaction: POST /$batch
	// CORS preflight, OPTIONS on any path, is answered before routing (see ServeHTTP).
}

// route finds the operation for the request; a known resource asked with a method it
// does not support is ErrMethodNotAllowed.
func (c *call) route() (route, error) {
	method, err := effectiveMethod(c.r)
	if err != nil {
		return route{}, err
	}
	c.method = method
	comp := c.query.Get("comp")
	known := false
	for _, rt := range routes {
		if rt.kind != c.res.kind || rt.comp != comp {
			continue
		}
		known = true
		if rt.method == method {
			return rt, nil
		}
	}
	if known {
		return route{xml: comp != ""}, ErrMethodNotAllowed
	}
	return route{xml: comp != ""}, ErrQueryParamInvalid
}

// effectiveMethod is the request's method, or the method X-HTTP-Method tunnels through a
// POST (MERGE, PUT, PATCH or DELETE).
func effectiveMethod(r *exchange.Request) (string, error) {
	xm := r.Header.Values("X-HTTP-Method")
	if len(xm) == 0 {
		return r.Method, nil
	}
	if r.Method != exchange.MethodPost {
		return "", ErrXMethodNotPost
	}
	if len(xm) > 1 || strings.Contains(xm[0], ",") {
		return "", ErrXMethodCount
	}
	switch m := strings.ToUpper(strings.TrimSpace(xm[0])); m {
	case "MERGE", "PUT", "PATCH", "DELETE":
		return m, nil
	}
	return "", ErrXMethodValue
}
