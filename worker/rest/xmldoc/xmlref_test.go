package xmldoc

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The documents as encoding/xml reads and writes them: the reference the package's own
// reader and writer (xmlread.go, xmlbind.go, xmlwrite.go) must agree with. The package
// does not link encoding/xml itself: it would be a large share of the edge build's code.

type refACL struct {
	XMLName xml.Name         `xml:"SignedIdentifiers"`
	Items   []wireIdentifier `xml:"SignedIdentifier"`
}

type refProperties struct {
	XMLName       xml.Name     `xml:"StorageServiceProperties"`
	Logging       *wireLogging `xml:"Logging"`
	HourMetrics   *wireMetrics `xml:"HourMetrics"`
	MinuteMetrics *wireMetrics `xml:"MinuteMetrics"`
	Cors          *wireCors    `xml:"Cors"`
}

type refACLOut struct {
	XMLName xml.Name        `xml:"SignedIdentifiers"`
	Items   []identifierOut `xml:"SignedIdentifier"`
}

type refError struct {
	XMLName xml.Name `xml:"Error"`
	Code    string   `xml:"Code"`
	Message string   `xml:"Message"`
	Detail  string   `xml:"AuthenticationErrorDetail,omitempty"`
}

type refStats struct {
	XMLName      xml.Name `xml:"StorageServiceStats"`
	Status       string   `xml:"GeoReplication>Status"`
	LastSyncTime string   `xml:"GeoReplication>LastSyncTime"`
}

// xmlSeeds are documents, well-formed or not, that the reader and encoding/xml must judge alike.
var xmlSeeds = []string{
	goSDKACL, identifiers(3), azureSample, goSDKProperties, rule(okRule), "", "<", "<a>", "<a></b>", "<a/>",
	`<?xml version="1.1"?><SignedIdentifiers/>`, `<?xml version="1.0" encoding="latin1"?><SignedIdentifiers/>`,
	"junk<!-- c --><!DOCTYPE x [<!ENTITY y 'z'>]><?pi x?><SignedIdentifiers><SignedIdentifier><Id>a&amp;b&#x41;&#65;\r\n</Id><x:AccessPolicy xmlns:x='u'><Start><![CDATA[2024<]]></Start></x:AccessPolicy></SignedIdentifier></SignedIdentifiers>trailing<",
	"<SignedIdentifiers><SignedIdentifier><Id>&bogus;</Id></SignedIdentifier></SignedIdentifiers>",
	"<SignedIdentifiers a=1></SignedIdentifiers>", "<SignedIdentifiers><!-- a -- b --></SignedIdentifiers>",
	"<StorageServiceProperties><Logging><Delete> true </Delete><Read></Read><Write>x</Write></Logging></StorageServiceProperties>",
	"<StorageServiceProperties><Cors><CorsRule><MaxAgeInSeconds>99999999999</MaxAgeInSeconds></CorsRule></Cors><Cors><CorsRule/></Cors></StorageServiceProperties>",
	"<StorageServiceProperties><HourMetrics><RetentionPolicy><Days> 7 </Days></RetentionPolicy></HourMetrics><HourMetrics><Enabled>1</Enabled></HourMetrics></StorageServiceProperties>",
	"<SignedIdentifiers><!-- &x; \x00 \xff --><SignedIdentifier><Id><![CDATA[&amp;\r\n]]></Id></SignedIdentifier></SignedIdentifiers>",
	"<SignedIdentifiers><SignedIdentifier><Id><![CDATA[\x00]]></Id></SignedIdentifier></SignedIdentifiers>",
	"<SignedIdentifiers><?pi \x00?><SignedIdentifier a='&#0;' b=\"&#xD800;\"><Id>&#xD800;&#1114112;</Id></SignedIdentifier></SignedIdentifiers>",
	"<Signed\u00d7Identifiers/>", "<:SignedIdentifiers/>", "<SignedIdentifiers:/>", "<x:SignedIdentifiers></y:SignedIdentifiers>",
	"<SignedIdentifiers><!\"></SignedIdentifiers>", "<!-x><SignedIdentifiers/>", "<![x<SignedIdentifiers/>",
	"<!DOCTYPE a [<!-- > --> <b '>'>]><SignedIdentifiers/>", `<?xml version = "1.1"?><SignedIdentifiers/>`,
	`<?xml version='1.1'?><SignedIdentifiers/>`, `<?xml encoding="UTF-8" version="1.0" ?><SignedIdentifiers/>`,
	"<SignedIdentifiers><a\u00d7b/><SignedIdentifier a\u00f7='1'/></SignedIdentifiers>", "<SignedIdentifiers><é/></SignedIdentifiers>",
	"<Other/>", "<SignedIdentifiers>\x00</SignedIdentifiers>", "<SignedIdentifiers>\xff</SignedIdentifiers>",
}

func FuzzDecodeACL(f *testing.F) {
	for _, s := range xmlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got, err := decodeACL([]byte(body))
		var ref refACL
		refErr := xml.Unmarshal([]byte(body), &ref)
		if knownDifference(err, refErr) {
			return
		}
		if (err == nil) != (refErr == nil) {
			t.Fatalf("decodeACL(%q): %v; encoding/xml: %v", body, err, refErr)
		}
		if err == nil && !reflect.DeepEqual(got.Items, ref.Items) {
			t.Fatalf("decodeACL(%q) = %s; encoding/xml: %s", body, show(got.Items), show(ref.Items))
		}
	})
}

func FuzzDecodeProperties(f *testing.F) {
	for _, s := range xmlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got, err := decodeProperties([]byte(body))
		var ref refProperties
		refErr := xml.NewDecoder(strings.NewReader(body)).Decode(&ref)
		if knownDifference(err, refErr) {
			return
		}
		if (err == nil) != (refErr == nil) {
			t.Fatalf("decodeProperties(%q): %v; encoding/xml: %v", body, err, refErr)
		}
		want := wireProperties{Logging: ref.Logging, HourMetrics: ref.HourMetrics, MinuteMetrics: ref.MinuteMetrics, Cors: ref.Cors}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeProperties(%q) = %s; encoding/xml: %s", body, show(got), show(want))
		}
	})
}

// knownDifference reports the one difference the reader keeps from encoding/xml: a name
// (of an element the documents do not have, or of an attribute) with a non-ASCII
// character that XML 1.0 does not allow in names is read, where encoding/xml refuses the
// document ("invalid XML name"). Checking it would take XML's tables of name characters.
func knownDifference(err, refErr error) bool {
	return err == nil && refErr != nil && strings.Contains(refErr.Error(), "invalid XML name")
}

// show is v in a form that prints what pointers hold.
func show(v any) string {
	var b bytes.Buffer
	xml.NewEncoder(&b).Encode(v)
	return b.String()
}

// awkward is text that needs escaping, with characters XML does not allow and invalid UTF-8.
const awkward = "a<b>&\"c'\t\n\r\x00\x1f\ufffd\xff é 𝄞"

func TestWriteACL_SameAsEncodingXML(t *testing.T) {
	for _, doc := range []aclOut{{}, {Items: []identifierOut{{ID: "id1"}, {ID: awkward, Policy: policyOut{Start: "2024-01-02T00:00:00.0000000Z", Expiry: awkward, Permission: "raud"}}}}} {
		var got bytes.Buffer
		if err := writeACLDoc(&got, doc); err != nil {
			t.Fatal(err)
		}
		if want := marshal(t, refACLOut{Items: doc.Items}); got.String() != want {
			t.Errorf("writeACLDoc = %q, encoding/xml: %q", got.String(), want)
		}
	}
}

func TestWriteProperties_SameAsEncodingXML(t *testing.T) {
	s, yes, no, days, age := awkward, true, false, 7, int32(300)
	full := wireProperties{
		Logging:       &wireLogging{Version: &s, Delete: &yes, Read: &no, Write: &yes, RetentionPolicy: &wireRetention{Enabled: &yes, Days: &days}},
		HourMetrics:   &wireMetrics{Version: &s, Enabled: &yes, IncludeAPIs: &no, RetentionPolicy: &wireRetention{Enabled: &no}},
		MinuteMetrics: &wireMetrics{Enabled: &no},
		Cors:          &wireCors{Rules: []wireRule{{AllowedOrigins: &s, AllowedMethods: &s, MaxAgeInSeconds: &age, ExposedHeaders: &s, AllowedHeaders: &s}, {}}},
	}
	for _, doc := range []wireProperties{{}, {Cors: &wireCors{}}, full} {
		var got bytes.Buffer
		if err := writePropertiesDoc(&got, doc); err != nil {
			t.Fatal(err)
		}
		ref := refProperties{Logging: doc.Logging, HourMetrics: doc.HourMetrics, MinuteMetrics: doc.MinuteMetrics, Cors: doc.Cors}
		if want := marshal(t, ref); got.String() != want {
			t.Errorf("writePropertiesDoc = %q, encoding/xml: %q", got.String(), want)
		}
	}
}

func TestWriteError_SameAsEncodingXML(t *testing.T) {
	for _, detail := range []string{"", awkward} {
		var got bytes.Buffer
		if err := WriteError(&got, "AuthenticationFailed", awkward, detail); err != nil {
			t.Fatal(err)
		}
		if want := marshal(t, refError{Code: "AuthenticationFailed", Message: awkward, Detail: detail}); got.String() != want {
			t.Errorf("WriteError = %q, encoding/xml: %q", got.String(), want)
		}
	}
}

func TestWriteStats_SameAsEncodingXML(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var got bytes.Buffer
	if err := WriteStats(&got, at); err != nil {
		t.Fatal(err)
	}
	if want := marshal(t, refStats{Status: "live", LastSyncTime: "Sun, 22 Nov 2026 10:00:00 GMT"}); got.String() != want {
		t.Errorf("WriteStats = %q, encoding/xml: %q", got.String(), want)
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := xml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return xmlHeader + string(b)
}
