// Verifier module
