// Package aiwgschema validates ralph-gate's loop state files against AIWG's
// Ralph schemas (schemas/, JSON Schema 2020-12 written as YAML), so that AIWG
// tools can read what ralph-gate writes.
//
// The schemas mark optional values with OpenAPI's `nullable: true`, which JSON
// Schema does not know; it is read as "null allowed": the type gains "null"
// and an enum gains null. Formats (date-time, uuid) are asserted.
//
// The package is used by tests; the binary does not embed it.
package aiwgschema
