"""The example projects in examples/, built and run as their READMEs say, on copies."""
