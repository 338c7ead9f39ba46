// Package azerr is the Azure Table service's error vocabulary, the one place Tabletop keeps
// it: every error code it answers with, the HTTP status and the message that go with it
// (codes.go), and the choice of code for an error (Of).
//
// The engine's errors are plain sentinel values (core/model, core, core/query,
// core/wire); Of maps them to codes through one table (engine.go). The protocol layer's
// own errors are declared with New, so each carries its code from where it is defined:
//
//	var ErrMethodNotAllowed = azerr.New(azerr.MethodNotAllowed, "method is not allowed on the resource")
//
// Every host reports errors through Of: the REST layer as Azure's JSON or XML error
// bodies, the browser bindings as JavaScript errors with a code and a statusCode. So an
// insert of an existing entity is EntityAlreadyExists, 409, with the same message, on
// the native server, at the edge and in the browser.
//
// The codes and messages are those of Microsoft's "Table service error codes" and
// "Common REST API error codes" reference pages.
package azerr
