package wire

// AppendTable appends a Create Table response body:
// {"odata.metadata":"{base}/$metadata#Tables/@Element","TableName":"t"}, with odata.type,
// odata.id and odata.editLink in full metadata.
func AppendTable(b []byte, name string, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, "Tables", true)
	}
	return closeObject(appendTableMembers(b, name, c))
}

// AppendTables appends a Query Tables response body:
// {"odata.metadata":"{base}/$metadata#Tables","value":[{"TableName":"t"},…]}.
func AppendTables(b []byte, names []string, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, "Tables", false)
	}
	b = append(b, `"value":[`...)
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = closeObject(appendTableMembers(append(b, '{'), name, c))
	}
	return append(b, "]}"...)
}

// appendTableMembers appends a table's members, each followed by a comma.
func appendTableMembers(b []byte, name string, c *Context) []byte {
	if c.Metadata == FullMetadata {
		b = append(b, `"odata.type":"`...)
		b = appendStringBody(b, c.Account)
		b = append(b, `.Tables","odata.id":"`...)
		b = appendStringBody(b, c.BaseURL)
		b = appendTablePath(append(b, '/'), name)
		b = appendTablePath(append(b, `","odata.editLink":"`...), name)
		b = append(b, `",`...)
	}
	b = AppendString(append(b, `"TableName":`...), name)
	return append(b, ',')
}

// appendTablePath appends "Tables('name')".
func appendTablePath(b []byte, name string) []byte {
	b = append(b, "Tables('"...)
	return append(appendPathSegment(b, name), "')"...)
}
