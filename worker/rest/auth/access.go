package auth

import "strings"

// Permission is a set of SAS permissions.
type Permission uint8

// The permissions a SAS can grant. A table SAS grants Read, Add, Update and Delete
// ("raud"); an account SAS also Write, List and Create ("rwdlacu").
const (
	Read   Permission = 1 << iota // r: query and get entities; read service properties and stats
	Add                           // a: insert entities
	Update                        // u: update and merge entities
	Delete                        // d: delete entities; delete tables (account SAS)
	Write                         // w: set service properties; create tables (account SAS)
	List                          // l: query tables (account SAS)
	Create                        // c: create tables (account SAS)
)

// permissionLetters lists the permissions in Azure's account SAS order.
var permissionLetters = [...]struct {
	letter byte
	perm   Permission
}{{'r', Read}, {'w', Write}, {'d', Delete}, {'l', List}, {'a', Add}, {'c', Create}, {'u', Update}}

// String returns the permissions as SAS letters in Azure's account order ("rwdlacu").
func (p Permission) String() string {
	var b strings.Builder
	for _, l := range permissionLetters {
		if p&l.perm != 0 {
			b.WriteByte(l.letter)
		}
	}
	return b.String()
}

// ResourceType is a set of account SAS resource types (srt).
type ResourceType uint8

// The resource types of an account SAS.
const (
	Service   ResourceType = 1 << iota // s: service properties and stats
	Container                          // c: tables (Query, Create and Delete Table)
	Object                             // o: entities
)

// Access is what one operation needs. Build it with For; the zero Access needs nothing.
type Access struct {
	Table        string       // the table addressed; "" for service-level operations and Query Tables
	Permission   Permission   // every permission the operation needs
	ResourceType ResourceType // the account SAS resource type of the operation
	OwnerOnly    bool         // only Shared Key may perform it (Get/Set Table ACL)
	PartitionKey string       // the entity addressed, when HasKey
	RowKey       string
	HasKey       bool // the operation addresses one entity, checked against SAS key ranges
}

// Operation names a Table service operation for For.
type Operation uint8

// The Table service operations. Get Entity is QueryEntities with WithKey; each operation
// of a batch is authorized on its own.
const (
	QueryTables Operation = iota + 1
	CreateTable
	DeleteTable
	GetTableACL
	SetTableACL
	GetServiceProperties
	SetServiceProperties
	GetServiceStats
	QueryEntities
	InsertEntity
	UpdateEntity
	MergeEntity
	DeleteEntity
	InsertOrReplaceEntity
	InsertOrMergeEntity
)

// operations is Azure's account SAS table for the Table service ("Create an account SAS")
// and the service SAS permission table ("Create a service SAS"), indexed by Operation: an
// array in the binary's data rather than a map, which the program would build at start.
var operations = [...]Access{
	QueryTables:           {ResourceType: Container, Permission: List},
	CreateTable:           {ResourceType: Container, Permission: Create},
	DeleteTable:           {ResourceType: Container, Permission: Delete},
	GetTableACL:           {ResourceType: Container, OwnerOnly: true},
	SetTableACL:           {ResourceType: Container, OwnerOnly: true},
	GetServiceProperties:  {ResourceType: Service, Permission: Read},
	SetServiceProperties:  {ResourceType: Service, Permission: Write},
	GetServiceStats:       {ResourceType: Service, Permission: Read},
	QueryEntities:         {ResourceType: Object, Permission: Read},
	InsertEntity:          {ResourceType: Object, Permission: Add},
	UpdateEntity:          {ResourceType: Object, Permission: Update},
	MergeEntity:           {ResourceType: Object, Permission: Update},
	DeleteEntity:          {ResourceType: Object, Permission: Delete},
	InsertOrReplaceEntity: {ResourceType: Object, Permission: Add | Update},
	InsertOrMergeEntity:   {ResourceType: Object, Permission: Add | Update},
}

// For returns what operation op on table needs ("" for service-level operations and
// Query Tables). An unknown op needs Shared Key.
func For(op Operation, table string) Access {
	a := Access{OwnerOnly: true}
	if op != 0 && int(op) < len(operations) {
		a = operations[op]
	}
	a.Table = table
	return a
}

// WithKey returns a addressing the entity (pk, rk).
func (a Access) WithKey(pk, rk string) Access {
	a.PartitionKey, a.RowKey, a.HasKey = pk, rk, true
	return a
}
