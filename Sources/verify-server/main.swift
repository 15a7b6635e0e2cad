import VerifyServer
print("x")
