// HPKE module
