// Package model is the Azure Table service data model, the rules every host enforces:
// entities and their properties, the eight EDM property types and their text forms
// (DateTime, Guid, Double and the rest), the rules for table names, property names and
// keys, ETags, and the service's limits, with the errors that name each broken rule.
//
// It holds no store: package core keeps entities, and applies these rules to each write.
// The rules and limits are those of Microsoft's "Understanding the Table service data
// model" reference page.
package model
