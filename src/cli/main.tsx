// joinstep command-line entry (placeholder until the commands land).
process.stdout.write('joinstep: under construction\n');
