package xmldoc

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// azureSample is the request body of the Set Table Service Properties page.
const azureSample = `<?xml version="1.0" encoding="utf-8"?>
<StorageServiceProperties>
    <Logging>
        <Version>1.0</Version>
        <Delete>true</Delete>
        <Read>false</Read>
        <Write>true</Write>
        <RetentionPolicy>
            <Enabled>true</Enabled>
            <Days>7</Days>
        </RetentionPolicy>
    </Logging>
    <HourMetrics>
        <Version>1.0</Version>
        <Enabled>true</Enabled>
        <IncludeAPIs>false</IncludeAPIs>
        <RetentionPolicy>
            <Enabled>true</Enabled>
            <Days>7</Days>
        </RetentionPolicy>
    </HourMetrics>
    <MinuteMetrics>
        <Version>1.0</Version>
        <Enabled>true</Enabled>
        <IncludeAPIs>true</IncludeAPIs>
        <RetentionPolicy>
            <Enabled>true</Enabled>
            <Days>7</Days>
        </RetentionPolicy>
    </MinuteMetrics>
    <Cors>
        <CorsRule>
            <AllowedOrigins> http://www.fabrikam.com,http://www.contoso.com</AllowedOrigins>
            <AllowedMethods>GET,PUT</AllowedMethods>
            <MaxAgeInSeconds>500</MaxAgeInSeconds>
            <ExposedHeaders>x-ms-meta-data*,x-ms-meta-customheader</ExposedHeaders>
            <AllowedHeaders>x-ms-meta-target*,x-ms-meta-customheader</AllowedHeaders>
        </CorsRule>
    </Cors>
</StorageServiceProperties>`

// goSDKProperties is the Set Service Properties body the Go SDK (aztables v1.4.1) sends
// for hour metrics and one CORS rule.
const goSDKProperties = `<?xml version="1.0" encoding="UTF-8"?>
<StorageServiceProperties><HourMetrics><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy><Version>1.0</Version></HourMetrics><Cors><CorsRule><AllowedHeaders>x-ms-meta-data*</AllowedHeaders><AllowedMethods>PUT,GET</AllowedMethods><AllowedOrigins>www.xyz.com</AllowedOrigins><ExposedHeaders>x-ms-meta-source*</ExposedHeaders><MaxAgeInSeconds>500</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`

// rule returns a <Cors> document with one rule made of the given children.
func rule(children string) string {
	return "<StorageServiceProperties><Cors><CorsRule>" + children + "</CorsRule></Cors></StorageServiceProperties>"
}

// okRule is a complete CORS rule's children.
const okRule = "<AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods><AllowedHeaders></AllowedHeaders><ExposedHeaders/><MaxAgeInSeconds>0</MaxAgeInSeconds>"

func TestParseProperties(t *testing.T) {
	tests := []struct {
		name string
		body string
		want *Properties
	}{
		{"OK/AzureSample", azureSample, &Properties{
			Logging:       &Logging{Version: "1.0", Delete: true, Write: true, RetentionPolicy: RetentionPolicy{true, 7}},
			HourMetrics:   &Metrics{Version: "1.0", Enabled: true, RetentionPolicy: RetentionPolicy{true, 7}},
			MinuteMetrics: &Metrics{Version: "1.0", Enabled: true, IncludeAPIs: true, RetentionPolicy: RetentionPolicy{true, 7}},
			Cors: []CorsRule{{AllowedOrigins: []string{"http://www.fabrikam.com", "http://www.contoso.com"}, AllowedMethods: []string{"GET", "PUT"},
				MaxAgeInSeconds: 500, ExposedHeaders: []string{"x-ms-meta-data*", "x-ms-meta-customheader"},
				AllowedHeaders: []string{"x-ms-meta-target*", "x-ms-meta-customheader"}}},
		}},
		{"OK/GoSDK", goSDKProperties, &Properties{
			HourMetrics: &Metrics{Version: "1.0", Enabled: true, IncludeAPIs: true, RetentionPolicy: RetentionPolicy{true, 5}},
			Cors: []CorsRule{{AllowedOrigins: []string{"www.xyz.com"}, AllowedMethods: []string{"PUT", "GET"}, MaxAgeInSeconds: 500,
				ExposedHeaders: []string{"x-ms-meta-source*"}, AllowedHeaders: []string{"x-ms-meta-data*"}}},
		}},
		{"OK/NothingGiven", "<StorageServiceProperties/>", &Properties{}},
		{"OK/EmptyCorsDisables", "<StorageServiceProperties><Cors/></StorageServiceProperties>", &Properties{Cors: []CorsRule{}}},
		{"OK/MetricsDisabledMinimal", "<StorageServiceProperties><MinuteMetrics><Enabled>false</Enabled></MinuteMetrics></StorageServiceProperties>",
			&Properties{MinuteMetrics: &Metrics{Version: "1.0"}}},
		{"OK/RetentionDisabledIgnoresDays", "<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled><Days>900</Days></RetentionPolicy></HourMetrics></StorageServiceProperties>",
			&Properties{HourMetrics: &Metrics{Version: "1.0"}}},
		{"OK/MethodsUpperCased", rule(strings.Replace(okRule, "GET", "get, patch,MERGE", 1)), &Properties{Cors: []CorsRule{
			{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"GET", "PATCH", "MERGE"}}}}},
		{"OK/UnknownElementsIgnored", "<StorageServiceProperties><DefaultServiceVersion>2019-02-02</DefaultServiceVersion></StorageServiceProperties>", &Properties{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseProperties(strings.NewReader(tt.body))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseProperties = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestParseProperties_Errors(t *testing.T) {
	logging := func(children string) string {
		return "<StorageServiceProperties><Logging>" + children + "</Logging></StorageServiceProperties>"
	}
	const logOK = "<Version>1.0</Version><Delete>true</Delete><Read>true</Read><Write>true</Write>"
	metrics := func(children string) string {
		return "<StorageServiceProperties><HourMetrics>" + children + "</HourMetrics></StorageServiceProperties>"
	}
	manyRules := "<StorageServiceProperties><Cors>" + strings.Repeat("<CorsRule>"+okRule+"</CorsRule>", 6) + "</Cors></StorageServiceProperties>"
	tests := []struct{ name, body, err string }{
		{"ErrXMLInvalid/Empty", "", "parse service properties"},
		{"ErrXMLInvalid/Malformed", "<StorageServiceProperties><Logging>", "parse service properties"},
		{"ErrXMLInvalid/Root", "<ServiceProperties/>", "parse service properties"},
		{"ErrXMLInvalid/NotABool", logging("<Version>1.0</Version><Delete>yes</Delete>"), "parse service properties"},
		{"ErrXMLInvalid/LoggingVersion", logging("<Delete>true</Delete><Read>true</Read><Write>true</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy>"), "Logging: Version is required"},
		{"ErrXMLInvalid/LoggingDelete", logging("<Version>1.0</Version>"), "Delete is required"},
		{"ErrXMLInvalid/LoggingRead", logging("<Version>1.0</Version><Delete>true</Delete>"), "Read is required"},
		{"ErrXMLInvalid/LoggingWrite", logging("<Version>1.0</Version><Delete>true</Delete><Read>true</Read>"), "Write is required"},
		{"ErrXMLInvalid/LoggingRetention", logging(logOK), "RetentionPolicy is required"},
		{"ErrXMLInvalid/RetentionEnabled", logging(logOK + "<RetentionPolicy><Days>3</Days></RetentionPolicy>"), "RetentionPolicy/Enabled is required"},
		{"ErrXMLInvalid/RetentionDaysMissing", logging(logOK + "<RetentionPolicy><Enabled>true</Enabled></RetentionPolicy>"), "Days (retention is enabled) is required"},
		{"ErrXMLInvalid/RetentionTooLong", metrics("<Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>366</Days></RetentionPolicy>"), "HourMetrics: RetentionPolicy/Days 366 is not within 1 to 365"},
		{"ErrXMLInvalid/RetentionZero", metrics("<Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>0</Days></RetentionPolicy>"), "Days 0"},
		{"ErrXMLInvalid/MetricsEnabled", metrics("<Version>1.0</Version>"), "Enabled is required"},
		{"ErrXMLInvalid/MetricsIncludeAPIs", metrics("<Enabled>true</Enabled>"), "IncludeAPIs (metrics are enabled) is required"},
		{"ErrXMLInvalid/TooManyCorsRules", manyRules, "6 CORS rules, at most 5"},
		{"ErrXMLInvalid/CorsOrigins", rule("<AllowedMethods>GET</AllowedMethods>"), "AllowedOrigins is required"},
		{"ErrXMLInvalid/CorsMethods", rule("<AllowedOrigins>*</AllowedOrigins>"), "AllowedMethods is required"},
		{"ErrXMLInvalid/CorsAllowedHeaders", rule("<AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods>"), "AllowedHeaders is required"},
		{"ErrXMLInvalid/CorsExposedHeaders", rule("<AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods><AllowedHeaders/>"), "ExposedHeaders is required"},
		{"ErrXMLInvalid/CorsMaxAge", rule("<AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods><AllowedHeaders/><ExposedHeaders/>"), "MaxAgeInSeconds is required"},
		{"ErrXMLInvalid/CorsMaxAgeNegative", rule(strings.Replace(okRule, ">0<", ">-1<", 1)), "MaxAgeInSeconds -1 is negative"},
		{"ErrXMLInvalid/CorsMaxAgeOverflow", rule(strings.Replace(okRule, ">0<", ">4294967296<", 1)), "parse service properties"},
		{"ErrXMLInvalid/CorsEmptyOrigins", rule(strings.Replace(okRule, ">*<", "> , <", 1)), "must not be empty"},
		{"ErrXMLInvalid/CorsMethod", rule(strings.Replace(okRule, "GET", "GET,TRACE", 1)), `method "TRACE" may not be allowed`},
		{"ErrXMLInvalid/CorsTooManyOrigins", rule(strings.Replace(okRule, ">*<", ">"+strings.Repeat("a,", 65)+"<", 1)), "65 allowed origins"},
		{"ErrXMLInvalid/CorsLongOrigin", rule(strings.Replace(okRule, ">*<", ">http://"+strings.Repeat("a", 250)+"<", 1)), "longer than 256"},
		{"ErrXMLInvalid/CorsPrefixedHeaders", rule(strings.Replace(okRule, "<AllowedHeaders></AllowedHeaders>", "<AllowedHeaders>a*,b*,c*</AllowedHeaders>", 1)), "AllowedHeaders: 0 literal and 3 prefixed"},
		{"ErrXMLInvalid/CorsLiteralHeaders", rule(strings.Replace(okRule, "<ExposedHeaders/>", "<ExposedHeaders>"+strings.Repeat("h,", 65)+"</ExposedHeaders>", 1)), "ExposedHeaders: 65 literal"},
		{"ErrXMLInvalid/CorsLongHeader", rule(strings.Replace(okRule, "<ExposedHeaders/>", "<ExposedHeaders>"+strings.Repeat("h", 257)+"</ExposedHeaders>", 1)), "longer than 256"},
		{"ErrXMLInvalid/CorsSettingsTooLarge", "<StorageServiceProperties><Cors>" + strings.Repeat("<CorsRule>"+strings.Replace(okRule, ">*<", ">"+strings.Repeat("x", 250)+","+strings.Repeat("y", 250)+"<", 1)+"</CorsRule>", 5) + "</Cors></StorageServiceProperties>", "at most 2048"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseProperties(strings.NewReader(tt.body))
			if !errors.Is(err, ErrXMLInvalid) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want ErrXMLInvalid with %q", err, tt.err)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	old := DefaultProperties()
	old.Cors = []CorsRule{{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"GET"}}}
	hour := &Metrics{Version: "1.0", Enabled: true}
	t.Run("OK/KeepsWhatIsNotGiven", func(t *testing.T) {
		got := Merge(old, &Properties{HourMetrics: hour})
		if got.HourMetrics != hour || got.Logging != old.Logging || got.MinuteMetrics != old.MinuteMetrics || len(got.Cors) != 1 {
			t.Fatalf("Merge = %+v", got)
		}
	})
	t.Run("OK/EmptyCorsClears", func(t *testing.T) {
		if got := Merge(old, &Properties{Cors: []CorsRule{}}); got.Cors == nil || len(got.Cors) != 0 {
			t.Fatalf("Cors = %#v", got.Cors)
		}
	})
	t.Run("OK/NilArguments", func(t *testing.T) {
		if got := Merge(nil, &Properties{HourMetrics: hour}); got.HourMetrics != hour || got.Logging != nil {
			t.Fatalf("Merge(nil, …) = %+v", got)
		}
		if got := Merge(old, nil); !reflect.DeepEqual(got, old) || got == old {
			t.Fatalf("Merge(old, nil) = %+v", got)
		}
	})
}

func TestWriteProperties(t *testing.T) {
	const defaults = `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties>` +
		`<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>` +
		`<HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>` +
		`<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>` +
		`<Cors></Cors></StorageServiceProperties>`
	t.Run("OK/Defaults", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteProperties(&b, DefaultProperties()); err != nil {
			t.Fatal(err)
		}
		if b.String() != defaults {
			t.Fatalf("WriteProperties =\n%s\nwant\n%s", b.String(), defaults)
		}
	})
	t.Run("OK/RoundTrip", func(t *testing.T) {
		want, err := ParseProperties(strings.NewReader(azureSample))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteProperties(&b, want); err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{`<CorsRule><AllowedOrigins>http://www.fabrikam.com,http://www.contoso.com</AllowedOrigins><AllowedMethods>GET,PUT</AllowedMethods><MaxAgeInSeconds>500</MaxAgeInSeconds>`,
			`<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>`} {
			if !strings.Contains(b.String(), part) {
				t.Errorf("output lacks %s:\n%s", part, b.String())
			}
		}
		got, err := ParseProperties(&b)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip = %+v, %v; want %+v", got, err, want)
		}
	})
}
