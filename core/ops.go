package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// OpKind is a kind of entity write.
type OpKind uint8

// The entity writes of the Table service.
const (
	// OpInsert adds an entity; ErrEntityExists if one has its keys.
	OpInsert OpKind = iota + 1
	// OpReplace replaces an existing entity's properties, subject to IfMatch.
	OpReplace
	// OpMerge sets properties on an existing entity, keeping the others, subject to IfMatch.
	OpMerge
	// OpInsertOrReplace inserts the entity or replaces the existing one, unconditionally.
	OpInsertOrReplace
	// OpInsertOrMerge inserts the entity or merges into the existing one, unconditionally.
	OpInsertOrMerge
	// OpDelete deletes an existing entity, subject to IfMatch.
	OpDelete
)

// opNames names each kind as @azure/data-tables names the entity writes, a transaction
// action with its update mode: the names the browser module hands the engine (wasm), and
// the commit kinds it reports.
var opNames = [...]string{"", "create", "updateReplace", "updateMerge", "upsertReplace", "upsertMerge", "delete"}

// String names the kind: create, updateReplace, updateMerge, upsertReplace, upsertMerge
// or delete.
func (k OpKind) String() string {
	if int(k) < len(opNames) && k > 0 {
		return opNames[k]
	}
	return "unknown"
}

// ParseOpKind returns the kind that String names name, and whether there is one.
func ParseOpKind(name string) (OpKind, bool) {
	for k := OpInsert; k <= OpDelete; k++ {
		if opNames[k] == name {
			return k, true
		}
	}
	return 0, false
}

// Op is one entity write: its kind, the entity (only the keys for OpDelete) and, for
// OpReplace, OpMerge and OpDelete, the ETag the stored entity must have ("*" or "" for any).
type Op struct {
	Kind    OpKind
	Entity  *model.Entity
	IfMatch string
}

// Get returns entity (pk, rk) of a table, or ErrEntityNotFound.
func (tx *Tx) Get(table, pk, rk string) (*model.Entity, error) {
	rec, err := tx.lookup(table, pk, rk)
	if err != nil {
		return nil, err
	}
	return rec.Entity()
}

// GetRecord returns entity (pk, rk) of a table as stored, read in place with nothing
// decoded (see Record), or ErrEntityNotFound. A stored form that does not decode in full
// is an error, as for Get.
func (tx *Tx) GetRecord(table, pk, rk string) (stored.Record, error) {
	rec, err := tx.lookup(table, pk, rk)
	if err != nil {
		return stored.Record{}, err
	}
	return rec, rec.Check()
}

// lookup finds entity (pk, rk) of a table, or answers ErrEntityNotFound, or
// ErrTableNotFound without the table. A found entity costs one lookup: an entity's key
// exists only while its table does (DeleteTable deletes the table's entities with it), so
// the table is looked up only when the entity is missing, to tell which of the two is.
func (tx *Tx) lookup(table, pk, rk string) (stored.Record, error) {
	if model.ValidateTableName(table) != nil {
		return stored.Record{}, ErrTableNotFound
	}
	if rec, ok, err := tx.lookupPoint(table, pk, rk); ok {
		return rec, err
	}
	key := stored.TableEntityKey(table, pk, rk)
	v, ok, err := tx.get(key)
	if err != nil {
		return stored.Record{}, err
	}
	if !ok {
		return stored.Record{}, orErr(tx.hasTable(table), ErrEntityNotFound)
	}
	pk, rk = stored.SplitEntityKey(key, len(stored.EntityPrefix)+len(table)+len(stored.Sep))
	return stored.RecordOf(pk, rk, v), nil
}

// Apply performs one write on a table and returns the entity as stored, with its new
// Timestamp (nil for OpDelete). Properties in op.Entity are used as given; the caller
// must not change them afterwards.
func (tx *Tx) Apply(table string, op Op) (*model.Entity, error) {
	if _, err := tx.Table(table); err != nil {
		return nil, err
	}
	return tx.apply(stored.TableID(table), op)
}

// apply performs op on the table whose id is given, which the caller has found to exist.
func (tx *Tx) apply(id string, op Op) (*model.Entity, error) {
	if err := validateOp(op); err != nil {
		return nil, err
	}
	return tx.applyValid(id, op)
}

// applyValid is apply for an op validateOp has accepted.
func (tx *Tx) applyValid(id string, op Op) (*model.Entity, error) {
	if op.Kind == OpInsert {
		return tx.insert(id, op.Entity)
	}
	e := op.Entity
	key := stored.EntityKey(id, e.PartitionKey, e.RowKey)
	old, err := tx.stored(key, e)
	if err != nil {
		return nil, err
	}
	if err := precondition(op, old); err != nil {
		return nil, err
	}
	if err := tx.localChange(id, e.PartitionKey, e.RowKey); err != nil {
		return nil, err
	}
	if op.Kind == OpDelete {
		if err := tx.del(key); err != nil {
			return nil, err
		}
		return nil, tx.recordDeletion(id, e.PartitionKey, e.RowKey)
	}
	if old == nil {
		if err := tx.supersedeDeletion(id, e.PartitionKey, e.RowKey); err != nil {
			return nil, err
		}
	}
	next := e
	if old != nil && (op.Kind == OpMerge || op.Kind == OpInsertOrMerge) {
		next = model.Merge(old, e)
		if err := next.Validate(); err != nil {
			return nil, err
		}
	}
	ts, err := tx.timestamp()
	if err != nil {
		return nil, err
	}
	out := &model.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: ts, Properties: next.Properties}
	return out, tx.set(stored.EncodeKeyed(out.Timestamp, out.Properties, key))
}

// insert adds entity e to table id; see insertPrepared.
func (tx *Tx) insert(id string, e *model.Entity) (*model.Entity, error) {
	p := prepareInsert(id, e)
	return tx.insertPrepared(&p)
}

// insertPrepared performs a prepared insert. It looks the key up only once, in the write
// itself, which tells whether an entity was there: then that entity is put back and the
// insert fails with ErrEntityExists, leaving only the transaction's Timestamp issued.
func (tx *Tx) insertPrepared(p *preparedInsert) (*model.Entity, error) {
	ts, err := tx.timestamp()
	if err != nil {
		return nil, err
	}
	if err := tx.setNew(p.stamp(ts)); err != nil {
		return nil, err
	}
	pk, rk := p.out.PartitionKey, p.out.RowKey
	if err := tx.localChange(p.id, pk, rk); err != nil {
		return nil, err
	}
	return p.out, tx.supersedeDeletion(p.id, pk, rk)
}

// localChange tells the store's Hooks of the application's write of entity (pk, rk) of
// table id, if it has Hooks and the write is the application's (not ApplyQuiet).
func (tx *Tx) localChange(id, pk, rk string) error {
	h := tx.store.opts.Hooks
	if h == nil || tx.quiet {
		return nil
	}
	return h.LocalWrite(tx, id, pk, rk)
}

// validateOp checks the op's kind and entity before anything is read.
func validateOp(op Op) error {
	if op.Kind < OpInsert || op.Kind > OpDelete {
		return model.ErrValueInvalid
	}
	if op.Entity == nil {
		return model.ErrKeyMissing
	}
	if op.Kind == OpDelete {
		if err := model.ValidateKey(model.PartitionKeyName, op.Entity.PartitionKey); err != nil {
			return err
		}
		return model.ValidateKey(model.RowKeyName, op.Entity.RowKey)
	}
	return op.Entity.Validate()
}

// stored returns the entity at key, or nil if there is none.
func (tx *Tx) stored(key string, e *model.Entity) (*model.Entity, error) {
	v, ok, err := tx.get(key)
	if err != nil || !ok {
		return nil, err
	}
	return stored.DecodeEntity(e.PartitionKey, e.RowKey, v)
}

// precondition checks existence and the ETag condition of op against the stored entity.
func precondition(op Op, old *model.Entity) error {
	switch op.Kind {
	case OpInsert:
		if old != nil {
			return ErrEntityExists
		}
	case OpReplace, OpMerge, OpDelete:
		if old == nil {
			return ErrEntityNotFound
		}
		if op.IfMatch == "" {
			return nil
		}
		if err := model.CheckETag(op.IfMatch); err != nil {
			return err
		}
		if !etagMatches(op.IfMatch, old) {
			return ErrPreconditionFailed
		}
	}
	return nil
}

// Scan calls fn with each entity of a table within r, in key order, until fn returns
// false. To resume after the last entity seen, scan r.After(pk, rk).
func (tx *Tx) Scan(table string, r stored.KeyRange, fn func(e *model.Entity) bool) error {
	var derr error
	err := tx.ScanRecords(table, r, func(rec *stored.Record) bool {
		e, err := rec.Entity()
		if err != nil {
			derr = err
			return false
		}
		return fn(e)
	})
	return orErr(err, derr)
}

// etagMatches reports whether If-Match value want is satisfied by entity e.
func etagMatches(want string, e *model.Entity) bool { return want == model.ETagAny || want == e.ETag() }
