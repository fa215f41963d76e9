// Package tool is the library.
package tool

// Version is the library's version.
const Version = "1.2.0"
