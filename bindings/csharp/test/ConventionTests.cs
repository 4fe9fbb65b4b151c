using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>The argument order users know from C and Java: the context first wherever a call takes one.</summary>
    [TestFixture]
    public class ConventionTests
    {
        static IEnumerable<MethodBase> PublicCalls() =>
            typeof(Library).Assembly.GetExportedTypes().SelectMany(type =>
                type.GetMethods(BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                    .Cast<MethodBase>()
                    .Concat(type.GetConstructors()));

        static string Describe(MethodBase call) =>
            call.DeclaringType.Name + "." + call.Name + "(" +
            string.Join(", ", call.GetParameters().Select(p => p.ParameterType.Name + " " + p.Name)) + ")";

        [Test]
        public void AContextIsAlwaysTheFirstArgumentAndNeverOptional()
        {
            int calls = 0;
            var misplaced = new List<string>();
            foreach (MethodBase call in PublicCalls())
            {
                ParameterInfo[] parameters = call.GetParameters();
                for (int i = 0; i < parameters.Length; ++i)
                {
                    if (parameters[i].ParameterType != typeof(Context)) continue;
                    ++calls;
                    if (i != 0 || parameters[i].IsOptional) misplaced.Add(Describe(call));
                }
            }
            CollectionAssert.IsEmpty(misplaced);
            Assert.Greater(calls, 20); // the calls of Dataset, Kernel, KMeans, Solver, Model, Approximation, Predictor
        }

        /// <summary>The parameter types of each Java call that takes a context (bindings/java/src/io/kmx), in C#.</summary>
        static object[][] JavaCalls => new[]
        {
            new object[] { typeof(Dataset), "Load", new[] { typeof(string) } },
            new object[] { typeof(Dataset), "Load", new[] { typeof(Context), typeof(string), typeof(FileFormat) } },
            new object[] { typeof(Dataset), "LoadShard", new[] { typeof(Context), typeof(string), typeof(FileFormat), typeof(long), typeof(long) } },
            new object[] { typeof(Dataset), "Parse", new[] { typeof(Context), typeof(string), typeof(FileFormat), typeof(string) } },
            new object[] { typeof(Dataset), "ToDense", new[] { typeof(Context) } },
            new object[] { typeof(Dataset), "GetRows", new[] { typeof(long), typeof(long), typeof(double[]) } },
            new object[] { typeof(Kernel), "Block", new[] { typeof(Context), typeof(double[,]), typeof(double[,]) } },
            new object[] { typeof(Kernel), "Block", new[] { typeof(Context), typeof(double[]), typeof(double[]), typeof(long) } },
            new object[] { typeof(Kernel), "BlockRows", new[] { typeof(Context), typeof(Dataset), typeof(long), typeof(long),
                                                                typeof(Dataset), typeof(long), typeof(long) } },
            new object[] { typeof(KMeans), "Fit", new[] { typeof(Context), typeof(Dataset), typeof(long), typeof(string) } },
            new object[] { typeof(KMeans), "Assign", new[] { typeof(Context), typeof(Dataset), typeof(double[]) } },
            new object[] { typeof(Solver), "Train", new[] { typeof(Context), typeof(Kernel), typeof(Dataset) } },
            new object[] { typeof(Model), "Load", new[] { typeof(string) } },
            new object[] { typeof(Model), "Predict", new[] { typeof(Context), typeof(Dataset) } },
            new object[] { typeof(Model), "DecisionValues", new[] { typeof(Context), typeof(Dataset) } },
            new object[] { typeof(Model), "DecisionValueMatrix", new[] { typeof(Context), typeof(Dataset) } },
            new object[] { typeof(Approximation), ".ctor", new[] { typeof(Context), typeof(Kernel), typeof(Dataset), typeof(string) } },
            new object[] { typeof(Approximation), "Matvec", new[] { typeof(Context), typeof(double[]) } },
            new object[] { typeof(Approximation), "Solve", new[] { typeof(Context), typeof(double), typeof(double[]) } },
            new object[] { typeof(Approximation), "RelativeError", new[] { typeof(Context), typeof(Dataset), typeof(long) } },
            new object[] { typeof(Predictor), "Build", new[] { typeof(Context), typeof(Model), typeof(Dataset), typeof(string) } },
            new object[] { typeof(Predictor), "Load", new[] { typeof(string) } },
            new object[] { typeof(Predictor), "Predict", new[] { typeof(Context), typeof(Dataset) } },
            new object[] { typeof(Predictor), "DecisionValues", new[] { typeof(Context), typeof(Dataset) } },
        };

        [Test, TestCaseSource(nameof(JavaCalls))]
        public void TakesTheArgumentsOfTheJavaCall(Type type, string name, Type[] parameters)
        {
            MethodBase call = name == ".ctor" ? (MethodBase)type.GetConstructor(parameters) : type.GetMethod(name, parameters);
            Assert.IsNotNull(call, type.Name + "." + name + "(" + string.Join(", ", parameters.Select(p => p.Name)) + ")");
        }

        [Test]
        public void LoadWithoutAContextIsLoadWithNone()
        {
            using (var ctx = new Context("threads=1"))
            using (var plain = Dataset.Load(TestData.LetterTrain))
            using (var withContext = Dataset.Load(ctx, TestData.LetterTrain))
            using (var withNull = Dataset.Load(null, TestData.LetterTrain, FileFormat.Libsvm))
            {
                Assert.AreEqual(withContext.Rows, plain.Rows);
                Assert.AreEqual(withNull.Rows, plain.Rows);
                CollectionAssert.AreEqual(withContext.GetRows(0, 5), plain.GetRows(0, 5));
                CollectionAssert.AreEqual(withContext.GetLabels(), withNull.GetLabels());
            }
        }
    }
}
