// Package gate holds the domain types every part of ralph-gate shares: finding
// types and severities, the catalogue of rules findings are raised by
// (Rules, RuleByID), findings, the verdict, the fail-on policy and the JSON
// report of the contract (schema "ralph-gate/report/v1").
package gate
