"""Unit tests of the harness's pure parts (no server, no sysbench run): python3 -m unittest discover bench"""
