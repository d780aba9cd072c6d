// The program memsim_layer_check_<layer> links around one layer's whole library and the
// layers below it (CMakeLists.txt, memsim_layer): it never runs; that it links is the check.
int main() { return 0; }
