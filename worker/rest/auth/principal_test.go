package auth

import (
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core/stored"
)

func TestPrincipal_Authorize(t *testing.T) {
	verify := func(qs string) *Principal {
		p, err := Verify(Request{HTTP: newRequest("GET", "/devstoreaccount1/x?"+qs, nil), Account: testAccount(t), Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tableRA := verify(tableSAS(t, DevAccountKey, aztables.SASSignatureValues{Permissions: "ra", ExpiryTime: expiry}))
	acctRL := verify(accountSAS(t, DevAccountKey, aztables.AccountSASSignatureValues{Permissions: "rl", Services: "t", ResourceTypes: "sc", ExpiryTime: expiry}))
	acctW := verify(accountSAS(t, DevAccountKey, aztables.AccountSASSignatureValues{Permissions: "wd", Services: "t", ResourceTypes: "co", ExpiryTime: expiry}))
	acctAll := verify(accountSAS(t, DevAccountKey, aztables.AccountSASSignatureValues{Permissions: "rwdlacup", Services: "t", ResourceTypes: "sco", ExpiryTime: expiry}))
	owner := &Principal{Kind: SharedKeyLite, Account: DevAccountName}
	tests := []struct {
		name string
		p    *Principal
		a    Access
		want error
	}{
		{"OK/SharedKeyAnything", owner, For(SetTableACL, "t"), nil},
		{"OK/TableSASQuery", tableRA, For(QueryEntities, "MYTABLE"), nil},
		{"OK/TableSASInsert", tableRA, For(InsertEntity, "mytable").WithKey("p", "r"), nil},
		{"ErrPermissionMismatch/TableSASUpdate", tableRA, For(UpdateEntity, "mytable"), ErrPermissionMismatch},
		{"ErrPermissionMismatch/TableSASUpsertNeedsUpdate", tableRA, For(InsertOrMergeEntity, "mytable"), ErrPermissionMismatch},
		{"ErrAuthorizationFailure/TableSASOtherTable", tableRA, For(QueryEntities, "other"), ErrAuthorizationFailure},
		{"ErrAuthorizationFailure/TableSASQueryTables", tableRA, For(QueryTables, ""), ErrAuthorizationFailure},
		{"ErrAuthorizationFailure/TableSASCreateTable", tableRA, For(CreateTable, "mytable"), ErrAuthorizationFailure},
		{"ErrAuthorizationFailure/TableSASGetACL", tableRA, For(GetTableACL, "mytable"), ErrAuthorizationFailure},
		{"ErrAuthorizationFailure/TableSASServiceProperties", tableRA, For(GetServiceProperties, ""), ErrAuthorizationFailure},
		{"OK/AccountSASQueryTables", acctRL, For(QueryTables, ""), nil},
		{"OK/AccountSASGetProperties", acctRL, For(GetServiceProperties, ""), nil},
		{"OK/AccountSASStats", acctRL, For(GetServiceStats, ""), nil},
		{"ErrPermissionMismatch/AccountSASSetProperties", acctRL, For(SetServiceProperties, ""), ErrPermissionMismatch},
		{"ErrResourceTypeMismatch/AccountSASEntities", acctRL, For(QueryEntities, "t"), ErrResourceTypeMismatch},
		{"OK/AccountSASWriteCreatesTables", acctW, For(CreateTable, "t"), nil},
		{"OK/AccountSASDeleteTable", acctW, For(DeleteTable, "t"), nil},
		{"ErrResourceTypeMismatch/AccountSASServiceLevel", acctW, For(SetServiceProperties, ""), ErrResourceTypeMismatch},
		{"ErrPermissionMismatch/AccountSASInsert", acctW, For(InsertEntity, "t"), ErrPermissionMismatch},
		{"OK/AccountSASUpsert", acctAll, For(InsertOrReplaceEntity, "t").WithKey("a", "b"), nil},
		{"ErrAuthorizationFailure/AccountSASSetACL", acctAll, For(SetTableACL, "t"), ErrAuthorizationFailure},
		{"ErrAuthorizationFailure/UnknownOperation", acctAll, For(Operation(200), "t"), ErrAuthorizationFailure},
		{"ErrAuthenticationFailed/UnknownKind", &Principal{}, For(QueryTables, ""), ErrAuthenticationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt.p.Authorize(tt.a), tt.want, "") })
	}
	if acctAll.KeyRange() != stored.WholeTable || owner.KeyRange() != stored.WholeTable {
		t.Error("KeyRange of a non-table principal is not the whole table")
	}
	if got := tableRA.Permission().String(); got != "ra" {
		t.Errorf("Permission = %q, want ra", got)
	}
}

func TestSASKeyRange(t *testing.T) {
	tests := []struct {
		name               string
		spk, srk, epk, erk string
		in, out            [][2]string
	}{
		{name: "OK/None", in: [][2]string{{"", ""}, {"zz", "zz"}}},
		{name: "OK/StartPartitionOnly", spk: "b", in: [][2]string{{"b", ""}, {"c", "a"}}, out: [][2]string{{"a", "zzz"}}},
		{name: "OK/EndPartitionOnly", epk: "b", in: [][2]string{{"b", "zzz"}, {"a", ""}}, out: [][2]string{{"ba", ""}, {"c", ""}}},
		{name: "OK/StartTuple", spk: "b", srk: "5", in: [][2]string{{"b", "5"}, {"b", "6"}, {"c", "0"}}, out: [][2]string{{"b", "4"}, {"a", "9"}}},
		{name: "OK/EndTuple", epk: "b", erk: "5", in: [][2]string{{"b", "5"}, {"a", "9"}}, out: [][2]string{{"b", "50"}, {"b", "6"}, {"c", ""}}},
		{name: "OK/OneEntity", spk: "p", srk: "r", epk: "p", erk: "r", in: [][2]string{{"p", "r"}}, out: [][2]string{{"p", "r0"}, {"p", "q"}, {"p", ""}}},
		{name: "OK/OnePartition", spk: "p", epk: "p", in: [][2]string{{"p", ""}, {"p", "zzz"}}, out: [][2]string{{"p0", ""}, {"o", "z"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sasKeyRange(tt.spk, tt.srk, tt.epk, tt.erk)
			for _, k := range tt.in {
				if !inRange(r, k[0], k[1]) {
					t.Errorf("%q should be in range", k)
				}
			}
			for _, k := range tt.out {
				if inRange(r, k[0], k[1]) {
					t.Errorf("%q should be out of range", k)
				}
			}
		})
	}
}

func TestFor(t *testing.T) {
	a := For(InsertOrMergeEntity, "t").WithKey("p", "r")
	want := Access{Table: "t", Permission: Add | Update, ResourceType: Object, PartitionKey: "p", RowKey: "r", HasKey: true}
	if a != want {
		t.Fatalf("For = %+v, want %+v", a, want)
	}
	if !For(GetTableACL, "t").OwnerOnly || !For(Operation(0), "").OwnerOnly {
		t.Fatal("ACL operations and unknown operations must be owner-only")
	}
}

func TestAuthError_Code(t *testing.T) {
	tests := []struct {
		err           *AuthError
		code, message string
	}{
		{authFailed("x"), "AuthenticationFailed", "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."},
		{fail(ErrPermissionMismatch, ""), "AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission."},
		{fail(ErrSourceIPMismatch, "1.2.3.4"), "AuthorizationSourceIPMismatch", "This request is not authorized to perform this operation using this source IP 1.2.3.4."},
		{fail(ErrResourceTypeMismatch, ""), "AuthorizationResourceTypeMismatch", "This request is not authorized to perform this operation using this resource type."},
		{fail(ErrAuthorizationFailure, ""), "AuthorizationFailure", "This request is not authorized to perform this operation."},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			if c := tt.err.AzureCode(); c.Name != tt.code || c.Message != tt.message {
				t.Fatalf("Code, Message = %q, %q", c.Name, c.Message)
			}
		})
	}
}
