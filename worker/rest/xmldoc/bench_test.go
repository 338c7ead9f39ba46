package xmldoc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPreflight matches a preflight against the last of n rules (Azure allows five)
// with growing numbers of requested headers.
func BenchmarkPreflight(b *testing.B) {
	for _, n := range []int{1, 5} {
		for _, h := range []int{1, 10} {
			p := &Properties{}
			for i := range n {
				p.Cors = append(p.Cors, CorsRule{AllowedOrigins: []string{fmt.Sprintf("https://app%d.example.com", i)},
					AllowedMethods: []string{"GET", "POST"}, AllowedHeaders: []string{"x-ms-*", "content-type"}})
			}
			headers := make([]string, h)
			for i := range headers {
				headers[i] = fmt.Sprintf("x-ms-h%d", i)
			}
			origin := fmt.Sprintf("https://app%d.example.com", n-1)
			b.Run(fmt.Sprintf("rules=%d/n=%d", n, h), func(b *testing.B) {
				for b.Loop() {
					if _, ok := p.Preflight(origin, "POST", headers); !ok {
						b.Fatal("no match")
					}
				}
			})
		}
	}
}

// BenchmarkParseACL parses ACLs of 1 to 5 identifiers.
func BenchmarkParseACL(b *testing.B) {
	for _, n := range []int{1, 5} {
		var doc bytes.Buffer
		doc.WriteString("<SignedIdentifiers>")
		for i := range n {
			fmt.Fprintf(&doc, "<SignedIdentifier><Id>id%d</Id><AccessPolicy><Start>2024-01-02T03:04:05Z</Start><Expiry>2025-01-02T03:04:05Z</Expiry><Permission>raud</Permission></AccessPolicy></SignedIdentifier>", i)
		}
		doc.WriteString("</SignedIdentifiers>")
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := ParseACL(strings.NewReader(doc.String())); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
