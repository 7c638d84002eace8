"""The static files' storage with DEBUG off: whitenoise's hashed, precompressed copies, the
JavaScript modules' own `import ... from "./x.js"` rewritten to the hashed names too. Every file
a page loads then has a hashed name, which whitenoise serves as cacheable for a year
(`Cache-Control: max-age=315360000, public, immutable`)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
