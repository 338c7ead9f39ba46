// The module's version: web/package.json's, CHANGELOG.md's latest and `tabletop version`'s
// (a test keeps them in agreement).

/** version is this module's version. */
export const version = "0.1.0";
