// Mdoc module
