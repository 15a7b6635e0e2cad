// Generated from Certificates/production/ by `UPDATE_EMBEDDED_BUNDLE=1 swift test --filter ProductionBundle`; do not edit.

extension ProductionTrustBundle {
    /// The PEM files of the bundle, in file-name order.
    static let embeddedPEM: [String] = [
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDcDCCAvagAwIBAgIUX9Ek9pKNP/yYUYu9pf6pyxFM2M4wCgYIKoZIzj0EAwMw
        STEYMBYGA1UEAwwPQWxhc2thIERNViBJQUNBMRMwEQYDVQQKDApBbGFza2EgRE1W
        MQswCQYDVQQIDAJBSzELMAkGA1UEBhMCVVMwHhcNMjUwMjEyMjMyMjM4WhcNMzUw
        MjEwMjMyMjM3WjBJMRgwFgYDVQQDDA9BbGFza2EgRE1WIElBQ0ExEzARBgNVBAoM
        CkFsYXNrYSBETVYxCzAJBgNVBAgMAkFLMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
        AgEGBSuBBAAiA2IABDMUuKt2Met/TjeB0klqsmfJyBiyc6liSk8s/R2FSwWJT10A
        zaWq3t77Fzl5xrUJfXrZOgmAad+R79nfCDKEw9nOUDyPxwnK+x1Tf56IyV9HEV9S
        5OweERm+HnOLqcYblqOCAZ0wggGZMBIGA1UdEwEB/wQIMAYBAf8CAQAwHwYDVR0j
        BBgwFoAUnG/8jgGkyjyKsmmZHwRklS8YxNQwMQYDVR0SBCowKIEmdXMuZGlzLm5v
        cmFtLml0LmFkbWluc0B0aGFsZXNncm91cC5jb20wMQYDVR0RBCowKIEmdXMuZGlz
        Lm5vcmFtLml0LmFkbWluc0B0aGFsZXNncm91cC5jb20wgbAGA1UdHwSBqDCBpTCB
        oqCBn6CBnIaBmWh0dHA6Ly9pc3N1aW5nLmFrbWRsLnVzLmFwcC5hei5rZXlmYWN0
        b3JzYWFzLmNvbS9lamJjYS9wdWJsaWN3ZWIvd2ViZGlzdC9jZXJ0ZGlzdD9jbWQ9
        Y3JsJmlzc3Vlcj1DTiUzREFsYXNrYStETVYrSUFDQSUyQ08lM0RBbGFza2ErRE1W
        JTJDU1QlM0RBSyUyQ0MlM0RVUzAdBgNVHQ4EFgQUnG/8jgGkyjyKsmmZHwRklS8Y
        xNQwGgYDVR0QBBMwEYEPMjAzMzAyMTAyMzIyMzhaMA4GA1UdDwEB/wQEAwIBBjAK
        BggqhkjOPQQDAwNoADBlAjBo/GoIeq0E6ZJAxUtMfyj3IYsXu9Aucg28yTfDAR0J
        8sqH18j3H9YThID1rFWT3+ECMQDlUAUD4AOg8BdCV9MJoBEMQXXPwa/NxLpRSrps
        hflgNiPYiTEagDl2oH5AglotZmU=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICLzCCAdWgAwIBAgIULKqh2YL8nZxMuCcDhKT9W7KdoOEwCgYIKoZIzj0EAwIw
        TTELMAkGA1UEBhMCVVMxDjAMBgNVBAgMBVVTLUFaMQswCQYDVQQKDAJBWjEhMB8G
        A1UEAwwYQVogcHJvZCBJQUNBIGNlcnRpZmljYXRlMB4XDTI0MDEwNDE4MTIxMVoX
        DTMzMDEwMTE4MTIxMVowTTELMAkGA1UEBhMCVVMxDjAMBgNVBAgMBVVTLUFaMQsw
        CQYDVQQKDAJBWjEhMB8GA1UEAwwYQVogcHJvZCBJQUNBIGNlcnRpZmljYXRlMFkw
        EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaKSXvg7kvU20K9N2OGSCcDIK10y4YmuV
        mRrcBLl8VzgsR+fhmZBFezRMOO+LcpqRRNdWYkvw8eeNJSaEkBzLuqOBkjCBjzAd
        BgNVHQ4EFgQUa1lKNWfQA9Er5R3V42nX2cYSxmcwEgYDVR0TAQH/BAgwBgEB/wIB
        ADAOBgNVHQ8BAf8EBAMCAQYwHwYDVR0SBBgwFoYUaHR0cHM6Ly9hem12ZG5vdy5n
        b3YwKQYDVR0fBCIwIDAeoBygGoYYaHR0cHM6Ly9hem12ZG5vdy5nb3YvY3JsMAoG
        CCqGSM49BAMCA0gAMEUCIDHxA/vdPbxFNYxYB0n9ILJLb94cl41flAgK0BQK+Ala
        AiEAo/DaL/g+n7hexKJto9hLgKxxbOB8eur8WuCaJ3kMdjc=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDBzCCAqygAwIBAgIUO/uWVmabBSV9o4SeYj6ioDz+HSYwCgYIKoZIzj0EAwIw
        fzESMBAGA1UEAwwJTVZNUHJvZENBMS0wKwYDVQQKDCRBcml6b25hIERlcGFydG1l
        bnQgb2YgVHJhbnNwb3J0YXRpb24xCzAJBgNVBAsMAklUMQswCQYDVQQGEwJVUzEO
        MAwGA1UECAwFVVMtQVoxEDAOBgNVBAcMB1Bob2VuaXgwHhcNMjQwODE2MTc0MDE5
        WhcNMzQwODE2MTc0MDE5WjB/MRIwEAYDVQQDDAlNVk1Qcm9kQ0ExLTArBgNVBAoM
        JEFyaXpvbmEgRGVwYXJ0bWVudCBvZiBUcmFuc3BvcnRhdGlvbjELMAkGA1UECwwC
        SVQxCzAJBgNVBAYTAlVTMQ4wDAYDVQQIDAVVUy1BWjEQMA4GA1UEBwwHUGhvZW5p
        eDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABFJpz6RkzZWqyVQ8CemsHjvLKY5J
        nInhby/1RHU6EErW04tvKjUSOpidfc1xcYG1pzJeCDGQPsju/LJue0vEKQKjggEE
        MIIBADAdBgNVHQ4EFgQUJkHD1SkBjqmWg4Z2gwJ8RxDI/vEwHwYDVR0jBBgwFoAU
        JkHD1SkBjqmWg4Z2gwJ8RxDI/vEwEgYDVR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8B
        Af8EBAMCAQYwLAYDVR0SBCUwI4YhaHR0cHM6Ly9hemRvdC5nb3YvbXZkL2NvbnRh
        Y3QtbXZkMGwGA1UdHwRlMGMwYaBfoF2GW2h0dHBzOi8vbXZtcHVibGljLmJsb2Iu
        Y29yZS51c2dvdmNsb3VkYXBpLm5ldC9jZXJ0aWZpY2F0ZS1yZXZvY2F0aW9uLWxp
        c3QvTVZNUHJvZENBLmNybC5wZW0wCgYIKoZIzj0EAwIDSQAwRgIhAI1/E8XQ/v4S
        Q92sPRivZLWK9hUYz3ZCdMBvMqQX322JAiEA8Nta7T9167ux1weIgBy+66L7G5ji
        mCxjO1ECnai4Kl8=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDAjCCAqigAwIBAgIUJeEs8QFyKHKe14//RgjijMhd77kwCgYIKoZIzj0EAwIw
        fzESMBAGA1UEAwwJTVZNUHJvZENBMS0wKwYDVQQKDCRBcml6b25hIERlcGFydG1l
        bnQgb2YgVHJhbnNwb3J0YXRpb24xCzAJBgNVBAsMAklUMQswCQYDVQQGEwJVUzEO
        MAwGA1UECAwFVVMtQVoxEDAOBgNVBAcMB1Bob2VuaXgwHhcNMjMwODIxMTk1NTE0
        WhcNMzExMDA1MTk1NTE0WjB/MRIwEAYDVQQDDAlNVk1Qcm9kQ0ExLTArBgNVBAoM
        JEFyaXpvbmEgRGVwYXJ0bWVudCBvZiBUcmFuc3BvcnRhdGlvbjELMAkGA1UECwwC
        SVQxCzAJBgNVBAYTAlVTMQ4wDAYDVQQIDAVVUy1BWjEQMA4GA1UEBwwHUGhvZW5p
        eDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABLrONskCsr38QbSzauflaxfVcUJN
        igQ5XLLZ1CMlQ2xbwrYS3XfnHko6hkLU71oQa06XYYsZTSwbq9yuIfgwRYmjggEA
        MIH9MGwGA1UdHwRlMGMwYaBfoF2GW2h0dHBzOi8vbXZtcHVibGljLmJsb2IuY29y
        ZS51c2dvdmNsb3VkYXBpLm5ldC9jZXJ0aWZpY2F0ZS1yZXZvY2F0aW9uLWxpc3Qv
        TVZNUHJvZENBLmNybC5wZW0wLAYDVR0SBCUwI4YhaHR0cHM6Ly9hemRvdC5nb3Yv
        bXZkL2NvbnRhY3QtbXZkMB0GA1UdDgQWBBSjqxsAk520jv9XEogMLLV7uQhdozAf
        BgNVHSMEGDAWgBSjqxsAk520jv9XEogMLLV7uQhdozAPBgNVHRMBAf8EBTADAQH/
        MA4GA1UdDwEB/wQEAwIBBjAKBggqhkjOPQQDAgNIADBFAiEAonxClPWmIGSA3NaB
        ylytzq1MZHcB0vcPZIn1DVyH+hACIB6W2VnK3JVJ/nlpi8y1cFLxa8DJQ/GPWB7i
        5Mz0G3n5
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDBzCCAqygAwIBAgIUdBfQKZnHSlxQkyUoTuucN+EQXOMwCgYIKoZIzj0EAwIw
        fzESMBAGA1UEAwwJTVZNUHJvZENBMS0wKwYDVQQKDCRBcml6b25hIERlcGFydG1l
        bnQgb2YgVHJhbnNwb3J0YXRpb24xCzAJBgNVBAsMAklUMQswCQYDVQQGEwJVUzEO
        MAwGA1UECAwFVVMtQVoxEDAOBgNVBAcMB1Bob2VuaXgwHhcNMjQwODE2MTc0ODE3
        WhcNMzQwODE2MTc0ODE3WjB/MRIwEAYDVQQDDAlNVk1Qcm9kQ0ExLTArBgNVBAoM
        JEFyaXpvbmEgRGVwYXJ0bWVudCBvZiBUcmFuc3BvcnRhdGlvbjELMAkGA1UECwwC
        SVQxCzAJBgNVBAYTAlVTMQ4wDAYDVQQIDAVVUy1BWjEQMA4GA1UEBwwHUGhvZW5p
        eDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABCyuq/xwpmVAcoeIObjy1vvsWzMc
        ivIIpfF6CxVyYoOQ7Dnu+dUEhqRKVrLMnzhoqDgKetzVHS4JQLCatOyus0CjggEE
        MIIBADAdBgNVHQ4EFgQUM0IsGLh/yqQ73mhM6h25/AsFp30wHwYDVR0jBBgwFoAU
        M0IsGLh/yqQ73mhM6h25/AsFp30wEgYDVR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8B
        Af8EBAMCAQYwLAYDVR0SBCUwI4YhaHR0cHM6Ly9hemRvdC5nb3YvbXZkL2NvbnRh
        Y3QtbXZkMGwGA1UdHwRlMGMwYaBfoF2GW2h0dHBzOi8vbXZtcHVibGljLmJsb2Iu
        Y29yZS51c2dvdmNsb3VkYXBpLm5ldC9jZXJ0aWZpY2F0ZS1yZXZvY2F0aW9uLWxp
        c3QvTVZNUHJvZENBLmNybC5wZW0wCgYIKoZIzj0EAwIDSQAwRgIhANuxS8uit1Hq
        j75A8J8RYSVFVLFIBHkqDvePviN8ZrwWAiEAwnolRQsC2bnEbVD2fCacCsnb58Hz
        +5RDm49N0aEhIv8=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDBzCCAqygAwIBAgIUE/iacpb/xR1hy0KQHlHoHjKGzRMwCgYIKoZIzj0EAwIw
        fzESMBAGA1UEAwwJTVZNUHJvZENBMS0wKwYDVQQKDCRBcml6b25hIERlcGFydG1l
        bnQgb2YgVHJhbnNwb3J0YXRpb24xCzAJBgNVBAsMAklUMQswCQYDVQQGEwJVUzEO
        MAwGA1UECAwFVVMtQVoxEDAOBgNVBAcMB1Bob2VuaXgwHhcNMjQwODE2MTc0NTIz
        WhcNMzQwODE2MTc0NTIzWjB/MRIwEAYDVQQDDAlNVk1Qcm9kQ0ExLTArBgNVBAoM
        JEFyaXpvbmEgRGVwYXJ0bWVudCBvZiBUcmFuc3BvcnRhdGlvbjELMAkGA1UECwwC
        SVQxCzAJBgNVBAYTAlVTMQ4wDAYDVQQIDAVVUy1BWjEQMA4GA1UEBwwHUGhvZW5p
        eDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNUGhfC9l3WzXL+idfZ51dzwz4ie
        YigtGiJCGYT3CNHF9BYOWZxYPSCNgJvDKTC3B7q3Vs0pSJ6k1/EgzwooG4OjggEE
        MIIBADAdBgNVHQ4EFgQUrFA+KDiO+qv3pK27Wn8IQWsmzxUwHwYDVR0jBBgwFoAU
        rFA+KDiO+qv3pK27Wn8IQWsmzxUwEgYDVR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8B
        Af8EBAMCAQYwLAYDVR0SBCUwI4YhaHR0cHM6Ly9hemRvdC5nb3YvbXZkL2NvbnRh
        Y3QtbXZkMGwGA1UdHwRlMGMwYaBfoF2GW2h0dHBzOi8vbXZtcHVibGljLmJsb2Iu
        Y29yZS51c2dvdmNsb3VkYXBpLm5ldC9jZXJ0aWZpY2F0ZS1yZXZvY2F0aW9uLWxp
        c3QvTVZNUHJvZENBLmNybC5wZW0wCgYIKoZIzj0EAwIDSQAwRgIhAMVvoqGUY5A4
        SLEkCpA+MTksCbKigfTEReO+44c88W+zAiEAwEMFKoWm4nD4h7bs3XoTmWxwbllG
        0nOh1tAVKRvyzM0=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICPzCCAeWgAwIBAgIUXd0okOOM5cylFwc2WNK7D2O+ArAwCgYIKoZIzj0EAwIw
        UTELMAkGA1UEBhMCVVMxDjAMBgNVBAgMBVVTLUNBMQ8wDQYDVQQKDAZDQS1ETVYx
        ITAfBgNVBAMMGENhbGlmb3JuaWEgRE1WIElBQ0EgUm9vdDAeFw0yMzAzMDExNzE3
        MzlaFw0zMzAxMDcxNzE3MzlaMFExCzAJBgNVBAYTAlVTMQ4wDAYDVQQIDAVVUy1D
        QTEPMA0GA1UECgwGQ0EtRE1WMSEwHwYDVQQDDBhDYWxpZm9ybmlhIERNViBJQUNB
        IFJvb3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARgzKB5QsRXYGxmIapA3ilL
        oXCDxgTMI2JArA72VQ9gL2DIKkBAclKYtix7vQwUbhbH76mnmbOFSxYlCJtilfl1
        o4GaMIGXMB0GA1UdDgQWBBS7fXVnknpvz59ye7gK9zcvnAxQNjASBgNVHRMBAf8E
        CDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBBjAfBgNVHRIEGDAWgRRpYWNhLXJvb3RA
        ZG12LmNhLmdvdjAxBgNVHR8EKjAoMCagJKAihiBodHRwczovL2NybC5kbXYuY2Eu
        Z292L2lhY2Evcm9vdDAKBggqhkjOPQQDAgNIADBFAiAJriK4wEUzgDCK++tIIW+g
        XASUIIcG/XhBNxuk2uHd7QIhAKWC8LFaM8qFsvlujtZZf647zD8BBc6kicj1Imw/
        wujS
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICTTCCAfOgAwIBAgITQLjupOO5ONy5wnGuSAXut8/MdjAKBggqhkjOPQQDAjB8
        MREwDwYDVQQIEwhDb2xvcmFkbzELMAkGA1UEBhMCVVMxJzAlBgNVBAoTHkNvbG9y
        YWRvIERlcGFydG1lbnQgb2YgUmV2ZW51ZTEYMBYGA1UECxMPQ29sb3JhZG8gRFJJ
        VkVTMRcwFQYDVQQDEw5DTyBEUklWRVMgUm9vdDAeFw0yMjA2MTMwNjAwMDBaFw0y
        NzA2MTMwNjAwMDBaMHwxETAPBgNVBAgTCENvbG9yYWRvMQswCQYDVQQGEwJVUzEn
        MCUGA1UEChMeQ29sb3JhZG8gRGVwYXJ0bWVudCBvZiBSZXZlbnVlMRgwFgYDVQQL
        Ew9Db2xvcmFkbyBEUklWRVMxFzAVBgNVBAMTDkNPIERSSVZFUyBSb290MFkwEwYH
        KoZIzj0CAQYIKoZIzj0DAQcDQgAE6Ttosl6ajIpCsk41lbg9viogkdPhjPCnNQYq
        vKV4tKQPnsOIHF/798NgqvT1kQA/Swiuvpkst6jVzNjnfb6srqNUMFIwDgYDVR0P
        AQH/BAQDAgEGMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYEFKeeRU96o6jouSOz
        9iMsEwIadoAjMBAGCSsGAQQBg8UhAQQDNTBQMAoGCCqGSM49BAMCA0gAMEUCIQCO
        L84Ke5mw6JRVVsGdWIs629Tv5atCGqVP9BLU1Oij7AIgd6CVhIC8U1r3/mAo6YuI
        zoJdi+QIyGu/DJ2jYyUHcGE=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIC/jCCAqWgAwIBAgIUAMLBrrtl/kiPRa3nJEt18F/kojAwCgYIKoZIzj0EAwIw
        gY8xDjAMBgNVBAgTBVVTLUNPMQswCQYDVQQGEwJVUzEPMA0GA1UEBxMGRGVudmVy
        MScwJQYDVQQKEx5Db2xvcmFkbyBEZXBhcnRtZW50IG9mIFJldmVudWUxEjAQBgNV
        BAsTCUNPIERSSVZFUzEiMCAGA1UEAxMZQ29sb3JhZG8gUm9vdCBDZXJ0aWZpY2F0
        ZTAeFw0yNDEwMjkwNjAwMDBaFw0yOTEwMjkwNjAwMDBaMIGPMQ4wDAYDVQQIEwVV
        Uy1DTzELMAkGA1UEBhMCVVMxDzANBgNVBAcTBkRlbnZlcjEnMCUGA1UEChMeQ29s
        b3JhZG8gRGVwYXJ0bWVudCBvZiBSZXZlbnVlMRIwEAYDVQQLEwlDTyBEUklWRVMx
        IjAgBgNVBAMTGUNvbG9yYWRvIFJvb3QgQ2VydGlmaWNhdGUwWTATBgcqhkjOPQIB
        BggqhkjOPQMBBwNCAARuuLSkdRJ4QPEFqbPHmZP8Hbu8waHHJ6wKofZgHg7fOTUT
        4r+jV+jFpM5dNCbW/mdJyJwRCEsdOs3cvGtolt5No4HcMIHZMA4GA1UdDwEB/wQE
        AwIBBjASBgNVHRMBAf8ECDAGAQH/AgEAMB0GA1UdDgQWBBRuHjVnGUTr6tI5nEkf
        nK/3EFyP2DAkBgNVHRIEHTAbhhlodHRwczovL2Rtdi5jb2xvcmFkby5nb3YvMFwG
        A1UdHwRVMFMwUaBPoE2GS2h0dHBzOi8vZGV2Lm1vYmlsZWRsLmNvbS81MHB3cy9D
        UkwvbURMLzMxOTE0YzI5OWMxMTRhMWQ4ZjE4MTRlZTExOWU1NTdhLmNybDAQBgkr
        BgEEAYPFIQEEAzUwUDAKBggqhkjOPQQDAgNHADBEAiBr2FEgBjcMyt1WPtiV1tSY
        AAcP1OxcBofI6NNZbBEXcQIgRWFaTIFbsVXVyouuTnsNCB6JykHPP03sxjkyA/Wd
        5RE=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIC5zCCAoygAwIBAgITF20opr5lffOr5qTJw5JHVOM0QDAKBggqhkjOPQQDAjCB
        jzEOMAwGA1UECBMFVVMtQ08xCzAJBgNVBAYTAlVTMQ8wDQYDVQQHEwZEZW52ZXIx
        JzAlBgNVBAoTHkNvbG9yYWRvIERlcGFydG1lbnQgb2YgUmV2ZW51ZTESMBAGA1UE
        CxMJQ08gRFJJVkVTMSIwIAYDVQQDExlDb2xvcmFkbyBSb290IENlcnRpZmljYXRl
        MB4XDTIzMDgyOTA2MDAwMFoXDTI4MDgyODA2MDAwMFowgY8xDjAMBgNVBAgTBVVT
        LUNPMQswCQYDVQQGEwJVUzEPMA0GA1UEBxMGRGVudmVyMScwJQYDVQQKEx5Db2xv
        cmFkbyBEZXBhcnRtZW50IG9mIFJldmVudWUxEjAQBgNVBAsTCUNPIERSSVZFUzEi
        MCAGA1UEAxMZQ29sb3JhZG8gUm9vdCBDZXJ0aWZpY2F0ZTBZMBMGByqGSM49AgEG
        CCqGSM49AwEHA0IABMO19kGKFG1PhA7pv0fRjrGydwWryixCNpJyF5X7j/XLIhNH
        IMM7vN3B4jfCSiflNbnzPU1gdSsDvoIx6Fab3IyjgcQwgcEwDgYDVR0PAQH/BAQD
        AgEGMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYEFOk1Cggg3O3lrcoqIjo6AzEg
        oYncMCQGA1UdEgQdMBuGGWh0dHBzOi8vZG12LmNvbG9yYWRvLmdvdi8wRwYDVR0f
        BEAwPjA8oDqgOIY2aHR0cHM6Ly9kZXYubW9iaWxlZGwuY29tLzUwcHdzL0NSTC9t
        REwvcmV2b2NhdGlvbnMuY3JsMBAGCSsGAQQBg8UhAQQDNTBQMAoGCCqGSM49BAMC
        A0kAMEYCIQCwMT0ZUKZpY4S/dF/Vq+5Zpa+3DOp1IU0kr8i0OiMaQwIhAOmmpLD3
        cM4VR9j3SHiSXn8t3814J6XocI5zvP5pTe5e
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDRzCCAu2gAwIBAgITVgO3G2afw4UBNWRnxbpYWrG5uTAKBggqhkjOPQQDAjCB
        nTEOMAwGA1UECBMFVVMtR0ExCzAJBgNVBAYTAlVTMRAwDgYDVQQHEwdDb255ZXJz
        MS4wLAYDVQQKEyVHZW9yZ2lhIERlcGFydG1lbnQgb2YgRHJpdmVyIFNlcnZpY2Vz
        MQ8wDQYDVQQLEwZEUklWRVMxKzApBgNVBAMTIkdlb3JnaWEgUm9vdCBDZXJ0aWZp
        Y2F0ZSBBdXRob3JpdHkwHhcNMjQwMzIwMDQwMDAwWhcNMjkwMzIwMDQwMDAwWjCB
        nTEOMAwGA1UECBMFVVMtR0ExCzAJBgNVBAYTAlVTMRAwDgYDVQQHEwdDb255ZXJz
        MS4wLAYDVQQKEyVHZW9yZ2lhIERlcGFydG1lbnQgb2YgRHJpdmVyIFNlcnZpY2Vz
        MQ8wDQYDVQQLEwZEUklWRVMxKzApBgNVBAMTIkdlb3JnaWEgUm9vdCBDZXJ0aWZp
        Y2F0ZSBBdXRob3JpdHkwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASsRp10nCFK
        tW6sJL0xMPMKDCkeKFccLdRGKl2gN9tnzGi9aEee3z9S+vOH2EKTxFVmiqEmCS1u
        5LXCKkLIq+D+o4IBCDCCAQQwDgYDVR0PAQH/BAQDAgEGMBIGA1UdEwEB/wQIMAYB
        Af8CAQAwHQYDVR0OBBYEFK/NJTZCADkKrAM2Djwlii+UBPk1MEgGA1UdEgRBMD+B
        I2dyb3VwaXRwcm9kdWN0aW9uc3VwcG9ydEBkZHMuZ2EuZ292hhhodHRwczovL2Rk
        cy5nZW9yZ2lhLmdvdi8wYwYDVR0fBFwwWjBYoFagVIZSaHR0cHM6Ly93cy5kcml2
        ZXMuZ2EuZ292L1dlYlNlcnZpY2VzL05BL0dTUC9jZXJ0aWZpY2F0ZS9yZXZvY2F0
        aW9uL3Jldm9jYXRpb25zLmNybDAQBgkrBgEEAYPFIQEEA0dTUDAKBggqhkjOPQQD
        AgNIADBFAiBsNDY02UQq8xatSFHgcdQY64lL0EaaYKsDQ3AvZGjPgAIhAJtOn2wk
        um9vlccuEFL8XIgL6XHl2jEQSNKadqLoOk+T
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIC3DCCAoKgAwIBAgIQO0MRI6jbr3YzWm0a/hWz7zAKBggqhkjOPQQDAjCBiDEL
        MAkGA1UEBhMCVVMxJTAjBgNVBAoMHERlcGFydG1lbnQgb2YgVHJhbnNwb3J0YXRp
        b24xGDAWBgNVBAsMD1N0YXRlIG9mIEhhd2FpaTEOMAwGA1UECAwFVVMtSEkxFTAT
        BgNVBAMMDEhJX0lBQ0FfUHJvZDERMA8GA1UEBwwISG9ub2x1bHUwHhcNMjQwNjA1
        MjEzNzI0WhcNMzQwNjAzMjIzNzI0WjCBiDELMAkGA1UEBhMCVVMxJTAjBgNVBAoM
        HERlcGFydG1lbnQgb2YgVHJhbnNwb3J0YXRpb24xGDAWBgNVBAsMD1N0YXRlIG9m
        IEhhd2FpaTEOMAwGA1UECAwFVVMtSEkxFTATBgNVBAMMDEhJX0lBQ0FfUHJvZDER
        MA8GA1UEBwwISG9ub2x1bHUwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARCcrrc
        8mVy8VHxjpV8ZfO8alQwpFRCT8kazy5f/iPEQPSsqc0pj6LdbLQdqXEaokUDKwcx
        fpdN0uaDk5MGWTFZo4HLMIHIMBIGA1UdEwEB/wQIMAYBAf8CAQAwHQYDVR0OBBYE
        FMCDFIyYQWlWmM2VtWMzENDagXvNMA4GA1UdDwEB/wQEAwIBBjAfBgNVHRIEGDAW
        hhRodHRwczovL21kbC5obmwuaW5mbzBiBgNVHR8EWzBZMFegVaBThlFodHRwOi8v
        ZDE3NWdjZzB6YzI4dGkuY2xvdWRmcm9udC5uZXQvY3JsLzlkNTE3MmZmLWZhMDYt
        NDJiMy04Zjc0LTI2OTM4ZjdkYWI0Yy5jcmwwCgYIKoZIzj0EAwIDSAAwRQIhAOrQ
        e8YV+0FSVI8EoNZeQklQvzql0UfTs2/+VxB4DnJdAiAuhccsfdM5gsysRhtdTuSL
        +G1QKJa/XMMZxJFWh/ozjg==
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIC5jCCAmygAwIBAgIRALx1kgxevAyQv4ja0Ojs/ZAwCgYIKoZIzj0EAwMwXzEv
        MC0GA1UEAwwmTG91aXNpYW5hIERlcGFydG1lbnQgb2YgTW90b3IgVmVoaWNsZXMx
        EjAQBgNVBAoMCUxBIFdhbGxldDELMAkGA1UECAwCTEExCzAJBgNVBAYTAlVTMB4X
        DTIzMDkwNzAwMDAwMFoXDTI4MDgxMjAwMDAwMFowXzEvMC0GA1UEAwwmTG91aXNp
        YW5hIERlcGFydG1lbnQgb2YgTW90b3IgVmVoaWNsZXMxEjAQBgNVBAoMCUxBIFdh
        bGxldDELMAkGA1UECAwCTEExCzAJBgNVBAYTAlVTMHYwEAYHKoZIzj0CAQYFK4EE
        ACIDYgAEHOUM2Naj4sPC/2nNPyOvaXF7vRMceG7rhVOW8pAS6y55FHnJHeHb/MLF
        +vadwQcrPhp0eM67QVcRqRvzJYsePuN8maDRhsUJgC1OI+624vAU6I6wbhEymiEi
        6K4KGGFvo4HrMIHoMBIGA1UdEwEB/wQIMAYBAf8CAQAwHQYDVR0OBBYEFDHnw6sz
        JSIvwMU5sFhhNFzSF8VPMA4GA1UdDwEB/wQEAwIBBjBTBgNVHR8ETDBKMEigRqBE
        hkJodHRwczovL3RydXN0LmxvdWlzaWFuYS5nb3YvcmV2b2NhdGlvbnMvbGEtbURM
        LWlhY2EtMjAyMy0wOS0wOC5jcmwwTgYDVR0SBEcwRYZDaHR0cHM6Ly90cnVzdC5s
        b3Vpc2lhbmEuZ292L2NlcnRpZmljYXRlcy9sYS1tREwtaWFjYS0yMDIzLTA5LTA4
        LmNlcjAKBggqhkjOPQQDAwNoADBlAjEA+8UHRHLLAYy/gwpO3iiUOt1xGEXZzfcI
        MvjBbHuL8RboSGqJ960JuJtyu5i7S8RRAjBvZPoTmr+82b+Yd2gZS8iCMgHt2PVv
        RY6wGupQoy0gniORYuiOUcCzcQ2hS4ZgfCs=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICPTCCAeOgAwIBAgITRSTb/2qENmWD2B4775xUbsWiPDAKBggqhkjOPQQDAjBq
        MQ4wDAYDVQQIEwVVUy1NRDELMAkGA1UEBhMCVVMxFDASBgNVBAcTC0dsZW4gQnVy
        bmllMRUwEwYDVQQKEwxNYXJ5bGFuZCBNVkExHjAcBgNVBAMTFUZhc3QgRW50ZXJw
        cmlzZXMgUm9vdDAeFw0yMjAzMjIwNDAwMDBaFw0zNzAzMTgwNDAwMDBaMGoxDjAM
        BgNVBAgTBVVTLU1EMQswCQYDVQQGEwJVUzEUMBIGA1UEBxMLR2xlbiBCdXJuaWUx
        FTATBgNVBAoTDE1hcnlsYW5kIE1WQTEeMBwGA1UEAxMVRmFzdCBFbnRlcnByaXNl
        cyBSb290MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEUwZk0R6eSX8tVuy0Xsh2
        pUPlwVMAn3tGBRQFWIP50MZ5pj0UlrauEr95Rq3rUge4ajUJJzRSSPzc89eBsk3H
        xqNoMGYwDgYDVR0PAQH/BAQDAgEGMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYE
        FGjQeEct4W5iyCf2VgvDXkWVx5qxMCQGA1UdEgQdMBuGGWh0dHBzOi8vbXZhLm1h
        cnlsYW5kLmdvdi8wCgYIKoZIzj0EAwIDSAAwRQIhALFuH5afdpZSTCmwXrAfCnQd
        2rAu0vwWOp9XBRALk5i/AiBakP+7rw5vec2QLjAxISVBkARC0zN3USSc0s63hsu9
        Uw==
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICxjCCAmygAwIBAgITJkV7El8K11IXqY7mz96n/EhiITAKBggqhkjOPQQDAjBq
        MQ4wDAYDVQQIEwVVUy1NRDELMAkGA1UEBhMCVVMxFDASBgNVBAcTC0dsZW4gQnVy
        bmllMRUwEwYDVQQKEwxNYXJ5bGFuZCBNVkExHjAcBgNVBAMTFUZhc3QgRW50ZXJw
        cmlzZXMgUm9vdDAeFw0yNDAxMDUwNTAwMDBaFw0yOTAxMDQwNTAwMDBaMGoxDjAM
        BgNVBAgTBVVTLU1EMQswCQYDVQQGEwJVUzEUMBIGA1UEBxMLR2xlbiBCdXJuaWUx
        FTATBgNVBAoTDE1hcnlsYW5kIE1WQTEeMBwGA1UEAxMVRmFzdCBFbnRlcnByaXNl
        cyBSb290MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaWcKIqlAWboV93RAa5ad
        0LJBn8W0/yYwtOyUlxuTxoo4SPkorKmOz3EhThC+U4WRrt13aSnCsJtK+waBFghX
        u6OB8DCB7TAOBgNVHQ8BAf8EBAMCAQYwEgYDVR0TAQH/BAgwBgEB/wIBADAdBgNV
        HQ4EFgQUTprRzaFBJ1SLjJsO01tlLCQ4YF0wPAYDVR0SBDUwM4EWbXZhY3NAbWRv
        dC5zdGF0ZS5tZC51c4YZaHR0cHM6Ly9tdmEubWFyeWxhbmQuZ292LzBYBgNVHR8E
        UTBPME2gS6BJhkdodHRwczovL215bXZhLm1hcnlsYW5kLmdvdjo1NDQzL01EUC9X
        ZWJTZXJ2aWNlcy9DUkwvbURML3Jldm9jYXRpb25zLmNybDAQBgkrBgEEAYPFIQEE
        A01EUDAKBggqhkjOPQQDAgNIADBFAiEAnX3+E4E5dQ+5G1rmStJTW79ZAiDTabyL
        8lJuYL/nDxMCIHHkAyIJcQlQmKDUVkBr3heUd5N9Y8GWdbWnbHuwe7Om
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIC7jCCApWgAwIBAgIUAIlZVGm+MFztWeqnzmHC1Liq1DAwCgYIKoZIzj0EAwIw
        ZjEOMAwGA1UECBMFVVMtTUQxCzAJBgNVBAYTAlVTMRQwEgYDVQQHEwtHbGVuIEJ1
        cm5pZTEVMBMGA1UEChMMTWFyeWxhbmQgTVZBMRowGAYDVQQDExFNRE9UIE1WQSBt
        REwgUm9vdDAeFw0yNTA2MTgwNjAwMDBaFw0zMDA2MTgwNjAwMDBaMGYxDjAMBgNV
        BAgTBVVTLU1EMQswCQYDVQQGEwJVUzEUMBIGA1UEBxMLR2xlbiBCdXJuaWUxFTAT
        BgNVBAoTDE1hcnlsYW5kIE1WQTEaMBgGA1UEAxMRTURPVCBNVkEgbURMIFJvb3Qw
        WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATSFdDeo2zV3GjlWdICLEyVygkyiM35
        79U/WAtsibXSWXpXeAkENed6fs8a4lPCm3ScBa/GHQsc/xPWG5brrf/vo4IBHzCC
        ARswDgYDVR0PAQH/BAQDAgEGMBIGA1UdEwEB/wQIMAYBAf8CAQAwHQYDVR0OBBYE
        FLSwEXEzIOHS6lueN/d0ga94nZ3dMFUGA1UdEgROMEyBHG12YXByaXZhY3lAbWRv
        dC5tYXJ5bGFuZC5nb3aGLGh0dHBzOi8vbXltdmEubWFyeWxhbmQuZ292L2dvL3dl
        Yi9Db250YWN0TVZBMG0GA1UdHwRmMGQwYqBgoF6GXGh0dHBzOi8vbXltdmEubWFy
        eWxhbmQuZ292OjU0NDMvTURQL1dlYlNlcnZpY2VzL0NSTC9tREwvNmVlMDdkMjE0
        MGYwNDJhMGE2ZTk5YTc4ZTQwNzlhYzAuY3JsMBAGCSsGAQQBg8UhAQQDTURQMAoG
        CCqGSM49BAMCA0cAMEQCIEOzO/2dCcx5yn8Hx6AdqCqgTNps18RrB0QGoHrwkFnx
        AiBApe5NXVdvg2yEhQylijYaUKTpJKNTiOx0CRPusfR5SQ==
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDTzCCAvagAwIBAgIUALz9VunJbM8WsRyc10+waZ7TncgwCgYIKoZIzj0EAwIw
        gZwxDjAMBgNVBAgTBVVTLU1UMQswCQYDVQQGEwJVUzEPMA0GA1UEBxMGSGVsZW5h
        MSYwJAYDVQQKEx1Nb250YW5hIERlcGFydG1lbnQgb2YgSnVzdGljZTEnMCUGA1UE
        CxMeTW9udGFuYSBNb3RvciBWZWhpY2xlIERpdmlzaW9uMRswGQYDVQQDExJjYXJz
        d3NucC5kb2ptdC5nb3YwHhcNMjUwNTAyMDYwMDAwWhcNMzAwNTAyMDYwMDAwWjCB
        nDEOMAwGA1UECBMFVVMtTVQxCzAJBgNVBAYTAlVTMQ8wDQYDVQQHEwZIZWxlbmEx
        JjAkBgNVBAoTHU1vbnRhbmEgRGVwYXJ0bWVudCBvZiBKdXN0aWNlMScwJQYDVQQL
        Ex5Nb250YW5hIE1vdG9yIFZlaGljbGUgRGl2aXNpb24xGzAZBgNVBAMTEmNhcnN3
        c25wLmRvam10LmdvdjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBdxLVV8czFF
        ucq2cRy7ZLkvMScwfq4SgtTu2vhilCFy8BsjSt1QbefFoV+KpPqpCZJLQSWrhSop
        cS7GkDAgYe6jggESMIIBDjAOBgNVHQ8BAf8EBAMCAQYwEgYDVR0TAQH/BAgwBgEB
        /wIBADAdBgNVHQ4EFgQUI0+hpnnb+Y53pVjpRENxe7Xvdc8wOQYDVR0SBDIwMIEa
        Y2Fyc2ludGVyZmFjZXRpY2tldEBtdC5nb3aGEmh0dHBzOi8vbXZkbXQuZ292LzB8
        BgNVHR8EdTBzMHGgb6BthmtodHRwczovL2NhcnMuZG9qbXQuZ292L2d3cHViL01v
        YmlsZUNyZWRlbnRpYWwvQ2VydGlmaWNhdGVzL1Jldm9jYXRpb25zLzMyNTk2ZGQy
        ZDIwZjQ4M2M5NzRhMzhjYTEwN2Q1NDNlLmNybDAQBgkrBgEEAYPFIQEEA01KUDAK
        BggqhkjOPQQDAgNHADBEAiBzw8qDQXADtdQz8KZopvLZZ15G9CD64accLrUYYehk
        XAIgQiCPWmy2wdDP22dNUnbFRqblP+1K2TYlEV2A789ZOBI=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDazCCAxCgAwIBAgIUAL6HcNnhfBgU3axITbtnZchElWkwCgYIKoZIzj0EAwIw
        gcExDjAMBgNVBAgTBVVTLU5NMQswCQYDVQQGEwJVUzERMA8GA1UEBxMIU2FudGEg
        RmUxMzAxBgNVBAoTKk5ldyBNZXhpY28gVGF4YXRpb24gYW5kIFJldmVudWUgRGVw
        YXJ0bWVudDEqMCgGA1UECxMhTmV3IE1leGljbyBNb3RvciBWZWhpY2xlIERpdmlz
        aW9uMS4wLAYDVQQDEyVOZXcgTWV4aWNvIFJvb3QgQ2VydGlmaWNhdGUgQXV0aG9y
        aXR5MB4XDTI0MDcyNjA2MDAwMFoXDTI5MDcyNjA2MDAwMFowgcExDjAMBgNVBAgT
        BVVTLU5NMQswCQYDVQQGEwJVUzERMA8GA1UEBxMIU2FudGEgRmUxMzAxBgNVBAoT
        Kk5ldyBNZXhpY28gVGF4YXRpb24gYW5kIFJldmVudWUgRGVwYXJ0bWVudDEqMCgG
        A1UECxMhTmV3IE1leGljbyBNb3RvciBWZWhpY2xlIERpdmlzaW9uMS4wLAYDVQQD
        EyVOZXcgTWV4aWNvIFJvb3QgQ2VydGlmaWNhdGUgQXV0aG9yaXR5MFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAE4XmFaUvOxY1VPg9tUXmlMnkmR1XDLV0DFISZuO7r
        c0ibUtlTqQtm383ylWY7yDBJRZFbdRInUWwPXR1WPpFKs6OB4zCB4DAOBgNVHQ8B
        Af8EBAMCAQYwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHQ4EFgQUyYcBvfzjEXhrywas
        e5x1u3ploe4wKQYDVR0SBCIwIIYeaHR0cHM6Ly93d3cubXZkLm5ld21leGljby5n
        b3YvMGEGA1UdHwRaMFgwVqBUoFKGUGh0dHBzOi8vc2VydmljZXMubXZkLm5ld21l
        eGljby5nb3Yvc2VydmljZXMvZXh0ZXJuYWwvY3JsL2dldExpc3QvcmV2b2NhdGlv
        bnMuY3JsMBAGCSsGAQQBg8UhAQQDTlNQMAoGCCqGSM49BAMCA0kAMEYCIQCZ8a0r
        HAhopm7QruSPkrKIh8/bwyVOOtD6ogvFIXMh+AIhAIVj3b+tGjG2zIPrj7Z5doxl
        bbFqmO73V8wIs1rlFxkS
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICqTCCAk+gAwIBAgIJALxpHayEzEaVMAoGCCqGSM49BAMCMIGJMQswCQYDVQQG
        EwJVUzEOMAwGA1UECAwFVVMtTlkxNDAyBgNVBAoMK05ldyBZb3JrIFN0YXRlIERl
        cGFydG1lbnQgb2YgTW90b3IgVmVoaWNsZXMxNDAyBgNVBAMMK05ldyBZb3JrIFN0
        YXRlIERlcGFydG1lbnQgb2YgTW90b3IgVmVoaWNsZXMwHhcNMjMwNTAyMTczMzU1
        WhcNMzIwNDI5MTczMzU1WjCBiTELMAkGA1UEBhMCVVMxDjAMBgNVBAgMBVVTLU5Z
        MTQwMgYDVQQKDCtOZXcgWW9yayBTdGF0ZSBEZXBhcnRtZW50IG9mIE1vdG9yIFZl
        aGljbGVzMTQwMgYDVQQDDCtOZXcgWW9yayBTdGF0ZSBEZXBhcnRtZW50IG9mIE1v
        dG9yIFZlaGljbGVzMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE42MYUmYNG5dN
        mmNDGLL7KqOrxC5ZmEoR5+5IeN2Mt29/rrBwHU8DDvVfB9juuBsDNPvFTXvzVX2M
        hSZQUgyx2KOBnTCBmjAdBgNVHQ4EFgQUfohMJhC3G2Ip6jAccpf1XZUhVoMwEgYD
        VR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8BAf8EBAMCAQYwHgYDVR0SBBcwFYYTaHR0
        cHM6Ly9kbXYubnkuZ292LzA1BgNVHR8ELjAsMCqgKKAmhiRodHRwOi8vY3JsLm55
        Lm1pZC40MzAwOTkubmV0L2NybC5wZW0wCgYIKoZIzj0EAwIDSAAwRQIgKnw9mSG6
        6Xs++voJyR8bp1FW+UTwjKNg0fQyg4M5KlsCIQCIHhKEg9eLpSYjIMYmSVN9+j+I
        Zs6Zo4yxAMrX+0evbw==
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIC1zCCAn2gAwIBAgIRANaPmlNgk2S+WiJCeTF1zhowCgYIKoZIzj0EAwIwgYkx
        CzAJBgNVBAYTAlVTMSkwJwYDVQQKDCBPaGlvIERlcGFydG1lbnQgb2YgUHVibGlj
        IFNhZmV0eTELMAkGA1UECwwCSVQxDjAMBgNVBAgMBVVTLU9IMR8wHQYDVQQDDBZP
        aGlvIG1ETCBSb290IENBIEdlbiAxMREwDwYDVQQHDAhDb2x1bWJ1czAeFw0yNDAz
        MjExNTE0NDhaFw0zNDAzMTkxNjE0NDhaMIGJMQswCQYDVQQGEwJVUzEpMCcGA1UE
        CgwgT2hpbyBEZXBhcnRtZW50IG9mIFB1YmxpYyBTYWZldHkxCzAJBgNVBAsMAklU
        MQ4wDAYDVQQIDAVVUy1PSDEfMB0GA1UEAwwWT2hpbyBtREwgUm9vdCBDQSBHZW4g
        MTERMA8GA1UEBwwIQ29sdW1idXMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARe
        xt/Ni9E/fWdcjHrhzlWbqkwKFHRw5CTPqQMiXMD+80E4EOiR92x542DOrbfKNKFb
        Jt0QLUm4ZuSH9oz2iF8No4HDMIHAMBIGA1UdEwEB/wQIMAYBAf8CAQAwHQYDVR0O
        BBYEFC8eJP9Sk7FKOdar7gURCcGB218IMA8GA1UdDwEB/wQFAwMHBgAwHwYDVR0S
        BBgwFoEUTURMSUFDQUBkcHMub2hpby5nb3YwWQYDVR0fBFIwUDBOoEygSoZIaHR0
        cHM6Ly9tZGxjcmwuZHBzLm9oaW8uZ292L2NybC81ZmNiZmZmMi03YWMwLTQ4YzAt
        YWM5Ni1mZjI3NzVlZDJiNDQuY3JsMAoGCCqGSM49BAMCA0gAMEUCIC9zOsELjdul
        T21W0YSpE8jm4ec1r4wM0nonxXVkMKceAiEAszOHaGlCDE0zmugt/AMrHKqd0OlJ
        VlY708JBLhMGBwA=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIIDIDCCAsagAwIBAgIQG9W2OpTXyQJ0PrtCwfrFKDAKBggqhkjOPQQDAjCBiDEL
        MAkGA1UEBhMCVVMxOTA3BgNVBAoMMFBSIERlcGFydG1lbnQgb2YgVHJhbnNwb3J0
        YXRpb24gYW5kIFB1YmxpYyBXb3JrczEOMAwGA1UECAwFVVMtUFIxGzAZBgNVBAMM
        ElBSRFRPUC1NREwtUFJPRC1DQTERMA8GA1UEBwwIU2FuIEp1YW4wHhcNMjQwNjAz
        MjAxMTM4WhcNMjkwNjAzMjExMTM4WjCBiDELMAkGA1UEBhMCVVMxOTA3BgNVBAoM
        MFBSIERlcGFydG1lbnQgb2YgVHJhbnNwb3J0YXRpb24gYW5kIFB1YmxpYyBXb3Jr
        czEOMAwGA1UECAwFVVMtUFIxGzAZBgNVBAMMElBSRFRPUC1NREwtUFJPRC1DQTER
        MA8GA1UEBwwIU2FuIEp1YW4wWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATP6mVx
        4VpNQqr4b4bKe/D7EZqaUouYe2vyca/g/GblDp4HaR2TbEFxYBolDNfBFmCum1Dc
        2a58A/ZAppPJcu/7o4IBDjCCAQowEgYDVR0TAQH/BAgwBgEB/wIBADAdBgNVHQ4E
        FgQUGjv4xc68io+nxd+htquQiI5OM9wwDwYDVR0PAQH/BAUDAwcGADAvBgNVHRIE
        KDAmgQ9tZGxAZHRvcC5wci5nb3aGE2h0dHBzOi8vbWRsLnByLmdvdi8wcgYDVR0f
        BGswaTBnoGWgY4ZhaHR0cDovL21kbC1pYWNhLWNvbHdyLnMzLnVzLWdvdi1lYXN0
        LTEuYW1hem9uYXdzLmNvbS9jcmwvMDI4ZTFkYjAtNjFhZC00Yzg3LTg1OTItYTQ1
        MTQ0ZDU4Mzk4LmNybDAfBgNVHSMEGDAWgBQaO/jFzryKj6fF36G2q5CIjk4z3DAK
        BggqhkjOPQQDAgNIADBFAiEA3zWqrvBJJAtiowJaHMGczNu0t2nIxe7FFatBcQW5
        mGkCIGN4OCs8VZTY0/cgc+GWG8xfeW9lXwR68Sef9L5XYEva
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICejCCAh+gAwIBAgIQP1fWX6bK5IWafQpOzL3JyjAKBggqhkjOPQQDAjBIMRYw
        FAYDVQQDDA1JQUNBLVVUQUgtVVNBMREwDwYDVQQKDAhVdGFoIERMRDEOMAwGA1UE
        CAwFVVMtVVQxCzAJBgNVBAYTAlVTMB4XDTI1MDMxMTEyNDkyNVoXDTM0MDYwNzEy
        NDkyNFowSDEWMBQGA1UEAwwNSUFDQS1VVEFILVVTQTERMA8GA1UECgwIVXRhaCBE
        TEQxDjAMBgNVBAgMBVVTLVVUMQswCQYDVQQGEwJVUzBZMBMGByqGSM49AgEGCCqG
        SM49AwEHA0IABA9gsjBB4V6FtUGvCF/ZuQu65dfWIK87Yr1r4KzBM6LFvwxTB5Mo
        WuS/JjyTZO3fENEFm3TtG+Js7KxIZMDClKyjgeowgecwEgYDVR0TAQH/BAgwBgEB
        /wIBADAfBgNVHSMEGDAWgBR9Bklm+FL6KtqQNeKXdsOkEUNg3TAnBgNVHRIEIDAe
        hhxodHRwczovL21vYmlsZWRsLnVzL2lhY2EtdXQvMBEGA1UdIAQKMAgwBgYEVR0g
        ADBFBgNVHR8EPjA8MDqgOKA2hjRodHRwOi8vd3d3Lm1vYmlsZWRsLnVzL3V0LWlh
        Y2EvbWRsRFMtVVRBSC1VU0EwMDMuY3JsMB0GA1UdDgQWBBR9Bklm+FL6KtqQNeKX
        dsOkEUNg3TAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDSQAwRgIhAP2roq3h
        wjl7IQ9j52KMANKn9L9ornH31k42AAUjYALYAiEAhla2itEIdVuVipPO2JorLhEg
        kF1FzMIw0ggETTzLmGo=
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICeDCCAh+gAwIBAgIQWluwShGaNXltKtR32ToazDAKBggqhkjOPQQDAjBIMRYw
        FAYDVQQDDA1JQUNBLVVUQUgtVVNBMREwDwYDVQQKDAhVdGFoIERMRDEOMAwGA1UE
        CAwFVVMtVVQxCzAJBgNVBAYTAlVTMB4XDTIzMTIxODEyMjU0N1oXDTMyMTIxNTEy
        MjU0NlowSDEWMBQGA1UEAwwNSUFDQS1VVEFILVVTQTERMA8GA1UECgwIVXRhaCBE
        TEQxDjAMBgNVBAgMBVVTLVVUMQswCQYDVQQGEwJVUzBZMBMGByqGSM49AgEGCCqG
        SM49AwEHA0IABGHwBQyjlOERffLUFurAF9F0gyRuD34FkPK8RfVuySJrooUnBi86
        jfKAEIFGzhAiR48EUe6YK2YcqfUqrEOX3uajgeowgecwEgYDVR0TAQH/BAgwBgEB
        /wIBADAfBgNVHSMEGDAWgBQ8TGzf54I0LuEU5s6tEgo5/Qg0azAnBgNVHRIEIDAe
        hhxodHRwczovL21vYmlsZWRsLnVzL2lhY2EtdXQvMBEGA1UdIAQKMAgwBgYEVR0g
        ADBFBgNVHR8EPjA8MDqgOKA2hjRodHRwOi8vd3d3Lm1vYmlsZWRsLnVzL3V0LWlh
        Y2EvbWRsRFMtVVRBSC1VU0EwMDIuY3JsMB0GA1UdDgQWBBQ8TGzf54I0LuEU5s6t
        Ego5/Qg0azAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDRwAwRAIgdzrANru5
        rEm8T4qsYoPEo5YqJ6wyZstAfMfkp9/BtjcCIEez933eeyubFUfqjd3hXIoRcl1E
        0UTdnk/UOBLQCG10
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICWDCCAf+gAwIBAgIUSDXJYXPM1GzzndPu7U7uQQpoOU4wCgYIKoZIzj0EAwIw
        NTEWMBQGA1UEAwwNVkEgbUlEIElBQ0EtQTEOMAwGA1UECAwFVVMtVkExCzAJBgNV
        BAYTAlVTMB4XDTI1MDcyMjEzMjYwMloXDTI3MDcyMjEzMjYwMVowNTEWMBQGA1UE
        AwwNVkEgbUlEIElBQ0EtQTEOMAwGA1UECAwFVVMtVkExCzAJBgNVBAYTAlVTMFkw
        EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEZ96O6yAnVSQogBLxplgoWuEQbJGeNwki
        C1Hx2MEKM6Jnpq4Wls+GU9IWImlUWWTaY0fgf+51Wkq1dguB8cVme6OB7DCB6TAS
        BgNVHRMBAf8ECDAGAQH/AgEAMB8GA1UdIwQYMBaAFJYUvOtd2fu7Ag6feF/TB+YJ
        9+FNMCMGA1UdEgQcMBqGGGh0dHBzOi8vZG12LnZpcmdpbmlhLmdvdjAjBgNVHREE
        HDAahhhodHRwczovL2Rtdi52aXJnaW5pYS5nb3YwOQYDVR0fBDIwMDAuoCygKoYo
        aHR0cHM6Ly93d3cubW9iaWxlZGwubmV0L21vYmlsZUlEL1ZBLmNybDAdBgNVHQ4E
        FgQUlhS8613Z+7sCDp94X9MH5gn34U0wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49
        BAMCA0cAMEQCIAZyBOjZrupvH9PqbgZNZFtgwVs+fXZVqgJKckP6FAbrAiAQdjxr
        6xA4VRVp/yjS9CKGoMw7tPkUrcfofZTv2AvPCA==
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICEDCCAbWgAwIBAgIUUhxrFDJvWXsEq8cE9Ubc56J3UHgwCgYIKoZIzj0EAwIw
        MzEUMBIGA1UEAwwLVkEgbUlEIElBQ0ExDjAMBgNVBAgMBVVTLVZBMQswCQYDVQQG
        EwJVUzAeFw0yNDAxMTExODIwNTVaFw0yNjAxMTAxODIwNTVaMDMxFDASBgNVBAMM
        C1ZBIG1JRCBJQUNBMQ4wDAYDVQQIDAVVUy1WQTELMAkGA1UEBhMCVVMwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAARYlUGHKrbF8sp6Px+uEUIaolNpS1zsnzvUhQzF
        6dZMxyc5u0q8q+1JBLm4IfVgxz/z0mwylqJHvdqFx3HI2qS/o4GmMIGjMB0GA1Ud
        DgQWBBQtBA32uf4Tf6oSkyUT9gwRXhvexTAOBgNVHQ8BAf8EBAMCAQYwIwYDVR0S
        BBwwGoYYaHR0cHM6Ly9kbXYudmlyZ2luaWEuZ292MBIGA1UdEwEB/wQIMAYBAf8C
        AQAwOQYDVR0fBDIwMDAuoCygKoYoaHR0cHM6Ly93d3cubW9iaWxlZGwubmV0L21v
        YmlsZUlEL1ZBLmNybDAKBggqhkjOPQQDAgNJADBGAiEA8BTTtb6qI0PwJo1QLauM
        4IF5wUod/uBWzAUZfxzP2f4CIQCXw1m3h61zd73x+14QF2hHlfwbSy1G5kXMq/VY
        EdBdOQ==
        -----END CERTIFICATE-----
        """#,
        #"""
        -----BEGIN CERTIFICATE-----
        MIICOTCCAd+gAwIBAgIUUug/LrZd1Og3FACxL5tn3vvIZYowCgYIKoZIzj0EAwIw
        TTELMAkGA1UEBhMCVVMxDjAMBgNVBAgMBVVTLVdWMQswCQYDVQQKDAJXVjEhMB8G
        A1UEAwwYV1YgcHJvZCBJQUNBIGNlcnRpZmljYXRlMB4XDTI0MTIxMTIwMTQzNloX
        DTMzMTIwOTIwMTQzNlowTTELMAkGA1UEBhMCVVMxDjAMBgNVBAgMBVVTLVdWMQsw
        CQYDVQQKDAJXVjEhMB8GA1UEAwwYV1YgcHJvZCBJQUNBIGNlcnRpZmljYXRlMFkw
        EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAENWgdDNLgfrrAFyzIlluaAJ7Meg6qcdVv
        8Pv421XMVDxoSTK0Zy/ezOP101ykhRhwccSDzsxX8YtdEOjHUVAoL6OBnDCBmTAd
        BgNVHQ4EFgQUBZe3UtbTEXhGfwqcsAUAiXfP5g4wEgYDVR0TAQH/BAgwBgEB/wIB
        ADAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0SBBYwFIYSaHR0cHM6Ly9kbXYud3YuZ292
        MDUGA1UdHwQuMCwwKqAooCaGJGh0dHA6Ly9jcmwud3YubWlkLjQzMDA5OS5uZXQv
        Y3JsLnBlbTAKBggqhkjOPQQDAgNIADBFAiADLiceQNoJyTivJMLKdHi0wbRiaEtI
        MqLJAqHoIfR2iAIhAOuTC/gN4Pu0AQ8T+qgyUVebnQ8xjtcEzlR0lAPO8bLA
        -----END CERTIFICATE-----
        """#,
    ]

    /// `manifest.json` of the bundle ("" when it has none).
    static let embeddedManifest = #"""
    {
      "bundle": "production",
      "retrieved": "2026-11-22",
      "lists": [
        {
          "source": "AAMVA VICAL issue 89782 (2025-08-05)",
          "nextUpdate": "2025-08-06T20:47:21Z"
        }
      ],
      "entries": [
        {
          "file": "ak-alaska-dmv-iaca.pem",
          "subject": "C=US,ST=AK,O=Alaska DMV,CN=Alaska DMV IACA",
          "certificateSHA256": "f0da3dbe4305223e792414c5de5202546e30dc07c3b16a4b8b1e21c444ae9c5c",
          "spkiSHA256": "8b5ec5bbdbf9e3d9df9af9bc27a857e0a63be9f7e1adc64039840752442b95da",
          "notBefore": "2025-02-12T23:22:38Z",
          "notAfter": "2035-02-10T23:22:37Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "az-az-prod-iaca-certificate.pem",
          "subject": "CN=AZ prod IACA certificate,O=AZ,ST=US-AZ,C=US",
          "certificateSHA256": "1e18c33fe5546f20dbc10efe9985e5fe0384c78adbf9fdbc17168a13574d3afb",
          "spkiSHA256": "027b604d08204101ad340584eef1656a57e50e0101c5b0409b854dcc931d2c7f",
          "notBefore": "2024-01-04T18:12:11Z",
          "notAfter": "2033-01-01T18:12:11Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/AZ/AZ_MID_PROD_ROOT_CA.pem",
              "fileSHA256": "b393b741300d08bfed6ce657e9c3de61df73dc838a00e48bbf0fe01c6caa27d1"
            }
          ],
          "expired": false
        },
        {
          "file": "az-mvmprodca-642a941b.pem",
          "subject": "L=Phoenix,ST=US-AZ,C=US,OU=IT,O=Arizona Department of Transportation,CN=MVMProdCA",
          "certificateSHA256": "642a941b0ea4ad96ed55667ecf134d17a6941fab4faf59f5d420fc325175b500",
          "spkiSHA256": "4421805631bbfc936be26eb1ea4435a47b3d3adb93986a857941bf7ac4755484",
          "notBefore": "2024-08-16T17:40:19Z",
          "notAfter": "2034-08-16T17:40:19Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "az-mvmprodca-6ff93edd.pem",
          "subject": "L=Phoenix,ST=US-AZ,C=US,OU=IT,O=Arizona Department of Transportation,CN=MVMProdCA",
          "certificateSHA256": "6ff93edd70710d737191b0ecfa3b7b5a58b56247710bdc4de28327c54e5a0c14",
          "spkiSHA256": "dd52f648a78c5aa4f59d25339b2744502d45e335de338769ff1fa658e86491a9",
          "notBefore": "2023-08-21T19:55:14Z",
          "notAfter": "2031-10-05T19:55:14Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/AZ/MDL_CA.pem",
              "fileSHA256": "d92f739146fec8ad65da49a642167988c016cfe75605882b4025c3e6176ef55e"
            }
          ],
          "expired": false
        },
        {
          "file": "az-mvmprodca-93f75867.pem",
          "subject": "L=Phoenix,ST=US-AZ,C=US,OU=IT,O=Arizona Department of Transportation,CN=MVMProdCA",
          "certificateSHA256": "93f7586782af84ea591c58f11dd1b46ee66090a5c1701f5baea217898469e218",
          "spkiSHA256": "39e86381e4671796e5c668c963c2ec854ea42354465d0763d7fd4f48745a1404",
          "notBefore": "2024-08-16T17:48:17Z",
          "notAfter": "2034-08-16T17:48:17Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "az-mvmprodca-f8527ee4.pem",
          "subject": "L=Phoenix,ST=US-AZ,C=US,OU=IT,O=Arizona Department of Transportation,CN=MVMProdCA",
          "certificateSHA256": "f8527ee48b7ad34679d1715e5d9d5fe1ab806d0477fccfa1e085b053c612b608",
          "spkiSHA256": "545d96e08baf23f35e3f2a760bc959a2801b91ef8da231f380540987d22d052c",
          "notBefore": "2024-08-16T17:45:23Z",
          "notAfter": "2034-08-16T17:45:23Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "ca-california-dmv-iaca-root.pem",
          "subject": "CN=California DMV IACA Root,O=CA-DMV,ST=US-CA,C=US",
          "certificateSHA256": "aeca3c4494a6b66ad32805ce9391388fd3b4b0890e420ea62fc2b097cea23c5d",
          "spkiSHA256": "46f91c0d4473c6431849406816903d873c005e2f3305f656bdd717fdfc76bdc1",
          "notBefore": "2023-03-01T17:17:39Z",
          "notAfter": "2033-01-07T17:17:39Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/CA/ca-dmv-iaca-root-ca-crt.cer",
              "fileSHA256": "7d6ee88af8d63e0c00d536c7193b88d6c56d385bd4f489c5a1bb37ab1356afbc"
            }
          ],
          "expired": false
        },
        {
          "file": "co-co-drives-root.pem",
          "subject": "CN=CO DRIVES Root,OU=Colorado DRIVES,O=Colorado Department of Revenue,C=US,ST=Colorado",
          "certificateSHA256": "35aaad6552d3ff4395623a5a8cea86d30a641d4aa5df665b3b99972f8c5c5355",
          "spkiSHA256": "9d585214a20eac09aa8800b129fb54dac9c2aec5c6ff12b46c15a03d9524194b",
          "notBefore": "2022-06-13T06:00:00Z",
          "notAfter": "2027-06-13T06:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/CO/Prod_Root_Certificate.cer",
              "fileSHA256": "35aaad6552d3ff4395623a5a8cea86d30a641d4aa5df665b3b99972f8c5c5355"
            }
          ],
          "expired": false
        },
        {
          "file": "co-colorado-root-certificate-7fcf25e9.pem",
          "subject": "CN=Colorado Root Certificate,OU=CO DRIVES,O=Colorado Department of Revenue,L=Denver,C=US,ST=US-CO",
          "certificateSHA256": "7fcf25e9a07f7114159521946e3d475f0ed7f6490e116e10665c31a782a313b0",
          "spkiSHA256": "11ac402f2aa6c1aa0cbd87cfa9e99d1aafba8f9c43c047fcb565ec2ff66d3d67",
          "notBefore": "2024-10-29T06:00:00Z",
          "notAfter": "2029-10-29T06:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "co-colorado-root-certificate-cc7e2be1.pem",
          "subject": "CN=Colorado Root Certificate,OU=CO DRIVES,O=Colorado Department of Revenue,L=Denver,C=US,ST=US-CO",
          "certificateSHA256": "cc7e2be1601b53b4e092dab3993a8075084c5646aaed363815fc77a5324ef335",
          "spkiSHA256": "7a51fb3d9e2ab35e1efb1c6b490cea085302eed2bf5a686146c6f3bd3c818ea6",
          "notBefore": "2023-08-29T06:00:00Z",
          "notAfter": "2028-08-28T06:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/CO/CO_Root_Certificate_New.cer",
              "fileSHA256": "cc7e2be1601b53b4e092dab3993a8075084c5646aaed363815fc77a5324ef335"
            }
          ],
          "expired": false
        },
        {
          "file": "ga-georgia-root-certificate-authority.pem",
          "subject": "CN=Georgia Root Certificate Authority,OU=DRIVES,O=Georgia Department of Driver Services,L=Conyers,C=US,ST=US-GA",
          "certificateSHA256": "9181aaa38802325b25e6d5aac973370aafc1a1561c4f1bae03a8bcf0bdaac0fc",
          "spkiSHA256": "c9ce82c0cd52c97ab44b4ed598d6bbb60976bdf6af1b19a164c72ee9c61f9272",
          "notBefore": "2024-03-20T04:00:00Z",
          "notAfter": "2029-03-20T04:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            },
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/GA/GA mDL Root.cer",
              "fileSHA256": "9181aaa38802325b25e6d5aac973370aafc1a1561c4f1bae03a8bcf0bdaac0fc"
            }
          ],
          "expired": false
        },
        {
          "file": "hi-hi-iaca-prod.pem",
          "subject": "L=Honolulu,CN=HI_IACA_Prod,ST=US-HI,OU=State of Hawaii,O=Department of Transportation,C=US",
          "certificateSHA256": "25bd462a463b6fe838fbcb1a214c74081e6e858f06cd18f4a8cff93605315234",
          "spkiSHA256": "054be3928e1b3fa65a57bc5f6048bcc2b68cebd3539573eb0472f687b77d12ef",
          "notBefore": "2024-06-05T21:37:24Z",
          "notAfter": "2034-06-03T22:37:24Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/HI/2024_HI_IACA_Root.pem",
              "fileSHA256": "0c90d28706c679c5ef600262e83d8e2057650b1a2a15ab382541ee9047de63a5"
            }
          ],
          "expired": false
        },
        {
          "file": "la-louisiana-department-of-motor-vehicles.pem",
          "subject": "C=US,ST=LA,O=LA Wallet,CN=Louisiana Department of Motor Vehicles",
          "certificateSHA256": "d4df7294b6cf73ab88443171f9fa72e1bbf193d037c8179fc64abc39594317e2",
          "spkiSHA256": "5ee6c9afb173044d9fe4ccea23fedad028f8213b7a0da497572c4cacab27f712",
          "notBefore": "2023-09-07T00:00:00Z",
          "notAfter": "2028-08-12T00:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/LA/LA-mDL-iaca-2023-09-08.cer",
              "fileSHA256": "d4df7294b6cf73ab88443171f9fa72e1bbf193d037c8179fc64abc39594317e2"
            }
          ],
          "expired": false
        },
        {
          "file": "md-fast-enterprises-root-21caaa94.pem",
          "subject": "CN=Fast Enterprises Root,O=Maryland MVA,L=Glen Burnie,C=US,ST=US-MD",
          "certificateSHA256": "21caaa945fc5bef6b55c83567e5172174b94136d6a8469b7ab7ec3418e1211aa",
          "spkiSHA256": "9093047f901efed5c4a2cc0e951cb14f4f670903cc9e54c850ae44a1d56787f8",
          "notBefore": "2022-03-22T04:00:00Z",
          "notAfter": "2037-03-18T04:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/MD/Root Certificate.cer",
              "fileSHA256": "21caaa945fc5bef6b55c83567e5172174b94136d6a8469b7ab7ec3418e1211aa"
            }
          ],
          "expired": false
        },
        {
          "file": "md-fast-enterprises-root-ecb88628.pem",
          "subject": "CN=Fast Enterprises Root,O=Maryland MVA,L=Glen Burnie,C=US,ST=US-MD",
          "certificateSHA256": "ecb8862894fd0b3098b1b7cd2d61193da161bf41b0467afc877819ab745d877a",
          "spkiSHA256": "8eaf721938efbe22d7a0c25bbc4a6fdbd5463513dbee139b83fdd1d409baa42f",
          "notBefore": "2024-01-05T05:00:00Z",
          "notAfter": "2029-01-04T05:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "md-mdot-mva-mdl-root.pem",
          "subject": "CN=MDOT MVA mDL Root,O=Maryland MVA,L=Glen Burnie,C=US,ST=US-MD",
          "certificateSHA256": "b6dbcf05d84474d02fe4ed5b56d4e1f68d7190c1e4a6e72094993aa8bdba63aa",
          "spkiSHA256": "82bce4ec1d91efe8093dc28084960e6c3d921e930379cfd919eecfb39e092356",
          "notBefore": "2025-06-18T06:00:00Z",
          "notAfter": "2030-06-18T06:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "mt-carswsnp-dojmt-gov.pem",
          "subject": "CN=carswsnp.dojmt.gov,OU=Montana Motor Vehicle Division,O=Montana Department of Justice,L=Helena,C=US,ST=US-MT",
          "certificateSHA256": "d0f9f9ac7ec847c245b5d7ba106c31dd727b31c8c5e658a153bde83af5c347cf",
          "spkiSHA256": "f7ce7483e59e7a20fd5e5a9f16f027f85b3db657c89eb207aa5ca0dd2cda123f",
          "notBefore": "2025-05-02T06:00:00Z",
          "notAfter": "2030-05-02T06:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "nm-new-mexico-root-certificate-authority.pem",
          "subject": "CN=New Mexico Root Certificate Authority,OU=New Mexico Motor Vehicle Division,O=New Mexico Taxation and Revenue Department,L=Santa Fe,C=US,ST=US-NM",
          "certificateSHA256": "a9afc48d355048e71b9fb948ce2bec1ac1e8c287bdd9fe6ad86911c8d1b3bdc8",
          "spkiSHA256": "8180acb87d2ed3110e781c0ed8b9110b3e92dc5dbfd5973421fe6b467f2f7779",
          "notBefore": "2024-07-26T06:00:00Z",
          "notAfter": "2029-07-26T06:00:00Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/NM/NM_mDL_Root_Certificate.cer",
              "fileSHA256": "a9afc48d355048e71b9fb948ce2bec1ac1e8c287bdd9fe6ad86911c8d1b3bdc8"
            }
          ],
          "expired": false
        },
        {
          "file": "ny-new-york-state-department-of-motor-vehic.pem",
          "subject": "CN=New York State Department of Motor Vehicles,O=New York State Department of Motor Vehicles,ST=US-NY,C=US",
          "certificateSHA256": "570fe94e364e24626c042dae2dfc9b03771f488160f6ce16d56b23f491dc7dc0",
          "spkiSHA256": "c1bb4d0f09a8c6f5ed99bb697963e879df3fb1df83023e6e41770170cda538c5",
          "notBefore": "2023-05-02T17:33:55Z",
          "notAfter": "2032-04-29T17:33:55Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/NY/New_York-iaca-cert.pem",
              "fileSHA256": "00028cc5dc1e273458626de4cbb792238f04868714ef2d6d15a049356d0a8072"
            }
          ],
          "expired": false
        },
        {
          "file": "oh-ohio-mdl-root-ca-gen-1.pem",
          "subject": "L=Columbus,CN=Ohio mDL Root CA Gen 1,ST=US-OH,OU=IT,O=Ohio Department of Public Safety,C=US",
          "certificateSHA256": "0d3985a06928690e240320838ea1d3b8bac183888254cc9fe25671c8f9ab4760",
          "spkiSHA256": "39d9895cdd4cb2b11eb6b8050c0b08cf6e6ada4b387269f0f60beb58fa264c74",
          "notBefore": "2024-03-21T15:14:48Z",
          "notAfter": "2034-03-19T16:14:48Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/OH/ohio_mdl_iaca_root_2024.pem",
              "fileSHA256": "373a40d4bacd185a55624aa53a142c4e74401af5908e6b8b7d6fcda7dfc37715"
            }
          ],
          "expired": false
        },
        {
          "file": "pr-prdtop-mdl-prod-ca.pem",
          "subject": "L=San Juan,CN=PRDTOP-MDL-PROD-CA,ST=US-PR,O=PR Department of Transportation and Public Works,C=US",
          "certificateSHA256": "ded9020bea46090c7540724a69fbb50e814d5ea45333dfe1a78a3cd2a7f27270",
          "spkiSHA256": "490d1041973f30dfd6f372b79536b07547fcc14edf9e786e782b30e91f872ee9",
          "notBefore": "2024-06-03T20:11:38Z",
          "notAfter": "2029-06-03T21:11:38Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/PR/PRDTOPProdCA.pem",
              "fileSHA256": "c3c6629ff6d5ce407f96e66f10af44adc511f3fb2ccf764172d28926dcf7794b"
            }
          ],
          "expired": false
        },
        {
          "file": "ut-iaca-utah-usa-0ba07f2f.pem",
          "subject": "C=US,ST=US-UT,O=Utah DLD,CN=IACA-UTAH-USA",
          "certificateSHA256": "0ba07f2f83084a82ff7090859c534ef52a394be38acd18e1b0973ce7ae95376e",
          "spkiSHA256": "a90f823a08d0dc731c79bffd38072f97a2e0de3d96d3c201f2b8193e6955d822",
          "notBefore": "2025-03-11T12:49:25Z",
          "notAfter": "2034-06-07T12:49:24Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "ut-iaca-utah-usa-d73a055f.pem",
          "subject": "C=US,ST=US-UT,O=Utah DLD,CN=IACA-UTAH-USA",
          "certificateSHA256": "d73a055f1f43de614c6e21b52002bf92bd4afb54ba7cb885d447063ce2f857df",
          "spkiSHA256": "d5085a5c20778f7f3a70fd7d1f7883e7fe2723ee6c0207363923ac3bc6f62bde",
          "notBefore": "2023-12-18T12:25:47Z",
          "notAfter": "2032-12-15T12:25:46Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "va-va-mid-iaca-a.pem",
          "subject": "C=US,ST=US-VA,CN=VA mID IACA-A",
          "certificateSHA256": "deb6959d588118ce374444995837ef8ee5cca78c2610542945de58839e16c26a",
          "spkiSHA256": "a16193a10337e2d8ea5e505a7d7baf895fabb2f5515f829e966c73fc81270b72",
          "notBefore": "2025-07-22T13:26:02Z",
          "notAfter": "2027-07-22T13:26:01Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": false
        },
        {
          "file": "va-va-mid-iaca.pem",
          "subject": "C=US,ST=US-VA,CN=VA mID IACA",
          "certificateSHA256": "314a68ebb7b13f20885631eb5ceb5d9855e285722eadfdb85a21788387b184b8",
          "spkiSHA256": "52291c0b15b9d4fcda05cf6b1375fbbe02a1ee059a5472e74f4667a6e9864505",
          "notBefore": "2024-01-11T18:20:55Z",
          "notAfter": "2026-01-10T18:20:55Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "AAMVA VICAL issue 89782 (2025-08-05)",
              "origin": "AAMVA Digital Trust Service, via walt-id/waltid-identity @ b19fda24510c7543f3c3dcad1daf2d77f4a168d1 waltid-libraries/credentials/waltid-vical/src/jvmTest/resources/vicals/aamva.cbor"
            }
          ],
          "expired": true
        },
        {
          "file": "wv-wv-prod-iaca-certificate.pem",
          "subject": "CN=WV prod IACA certificate,O=WV,ST=US-WV,C=US",
          "certificateSHA256": "8e04b65ccb9d3e4313f61c214bb131bae76a47c4635f196db0b54597cc90c0a9",
          "spkiSHA256": "92ce586e4557d50ec079ba8d51e9bdbd2138bce39c2124bb4a6c0f0edbeaceeb",
          "notBefore": "2024-12-11T20:14:36Z",
          "notAfter": "2033-12-09T20:14:36Z",
          "docTypes": [
            "org.iso.18013.5.1.mDL"
          ],
          "sources": [
            {
              "source": "community collection",
              "origin": "Mobile-Driver-License/ISO-18013-IACA-Certs @ 0ae96eb06a76e299b64c43ae736b702144004d86 US/WV/WV mID Root.cer",
              "fileSHA256": "adad69ea3fcec8ed6ada233940a1b83f87765c1231a674946695be9454f54021"
            }
          ],
          "expired": false
        }
      ]
    }
    """#
}
