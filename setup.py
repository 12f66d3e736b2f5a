"""`pip install --no-build-isolation .`: builds the Python module dancecard with the project's CMake (Release, the
C++ libraries linked in statically) and installs the package. The build needs what ./run installs (Debian's
pybind11-dev, python3-dev, the solvers' development packages); nothing is downloaded."""

import os
import pathlib
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DDANCECARD_TEST=OFF", "-DDANCECARD_BENCH=OFF", "-DDANCECARD_CLI=ON",
                        f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("DANCECARD_JOBS", "2")
        subprocess.run(["cmake", "--build", str(build), "--target", "dancecard_python", "-j", jobs], check=True)
        target = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        built = next((build / "python" / "dancecard").glob("_dancecard*.so"))
        target.write_bytes(built.read_bytes())


setup(
    name="dancecard",
    version="0.1.0",
    description="Check, generate and prove communication schedules of collective operations",
    packages=["dancecard"],
    package_dir={"": "python"},
    package_data={"dancecard": ["_dancecard.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("dancecard._dancecard")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
)
