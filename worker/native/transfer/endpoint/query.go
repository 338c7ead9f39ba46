package endpoint

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// Query reads the entities of table that match filter (all when empty), in the service's
// order (by PartitionKey then RowKey), a page at a time, and calls each for every one.
// It follows the NextPartitionKey and NextRowKey continuation headers to the end.
func (c *Client) Query(ctx context.Context, table, filter string, each func(*model.Entity) error) error {
	path := "/" + url.PathEscape(table) + "()"
	var nextPK, nextRK string
	for {
		q := url.Values{}
		if filter != "" {
			q.Set("$filter", filter)
		}
		if nextPK != "" {
			q.Set("NextPartitionKey", nextPK)
			if nextRK != "" {
				q.Set("NextRowKey", nextRK)
			}
		}
		resp, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q})
		if err != nil {
			return fmt.Errorf("query %s: %w", table, err)
		}
		err = readValues(resp, nil, func(dec *jsontext.Decoder) error {
			e, err := typedjson.ReadEntity(dec)
			if err != nil {
				return fmt.Errorf("read entity of %s: %w", table, err)
			}
			return each(e)
		})
		if err != nil {
			return err
		}
		nextPK = resp.Header.Get("x-ms-continuation-NextPartitionKey")
		nextRK = resp.Header.Get("x-ms-continuation-NextRowKey")
		if nextPK == "" {
			return nil
		}
	}
}
