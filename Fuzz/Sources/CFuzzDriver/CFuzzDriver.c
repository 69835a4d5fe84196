// The declaration of libFuzzer's driver only; libFuzzer itself comes with -sanitize=fuzzer.
