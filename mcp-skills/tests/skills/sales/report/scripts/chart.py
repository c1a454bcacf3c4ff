import sys

for line in sys.stdin:
    region, total = line.split()
    print(f"{region:<8}{'#' * (int(total) // 10)}")
