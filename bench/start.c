/* Benchmark driver (not a test) for the process start row of bench/run host: an empty main.
 * Built twice: linked to libibverbs (with --no-as-needed, so the library is loaded although
 * nothing in it is called) and linked to nothing; the row is the difference of the whole
 * process's instructions (loading, relocation, the library's constructors, exit). */
int main(void)
{
	return 0;
}
